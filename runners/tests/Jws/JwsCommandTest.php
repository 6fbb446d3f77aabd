<?php

declare(strict_types=1);

namespace PhpCryptoBench\Tests\Jws;

use PhpCryptoBench\Jws\Base64Url;
use PhpCryptoBench\Jws\KnownAnswers;
use PHPUnit\Framework\TestCase;
use PHPUnit\Framework\Attributes\DataProvider;

/** runners/jws.php: a token or a payload on stdout, exit 0; a refusal as one line on stderr, exit 1; bad usage, exit 2. */
final class JwsCommandTest extends TestCase
{
    private const USAGE = "usage: php runners/jws.php sign|verify ALG < {\"jwk\": {...}, \"payload\"|\"token\": \"...\"}\n";
    private const HS256_JWK = ['kty' => 'oct', 'k' => 'AyM1SysPpbyDfgZld3umj1qzKObwVMkoqQ-EstJQLr_T-1qS0gZH75aKtMN3Yj0iPS4hcgUuTwjAzZr1Z9CAow'];

    /** @return array{int, string, string} exit code, stdout, stderr */
    private static function jws(array $arguments, string $stdin): array
    {
        $process = proc_open(
            [PHP_BINARY, REPOSITORY . '/runners/jws.php', ...$arguments],
            [0 => ['pipe', 'r'], 1 => ['pipe', 'w'], 2 => ['pipe', 'w']],
            $pipes,
        );
        self::assertIsResource($process);
        fwrite($pipes[0], $stdin);
        fclose($pipes[0]);
        $out = (string) stream_get_contents($pipes[1]);
        $err = (string) stream_get_contents($pipes[2]);
        return [proc_close($process), $out, $err];
    }

    private static function json(array $document): string
    {
        return (string) json_encode($document);
    }

    public function testSignPrintsATokenThatVerifyReadsBack(): void
    {
        [$code, $token, $err] = self::jws(['sign', 'HS256'], self::json(['jwk' => self::HS256_JWK, 'payload' => '{"sub":"alice"}']));
        self::assertSame([0, ''], [$code, $err]);
        $expectedInput = Base64Url::encode('{"alg":"HS256","typ":"JWT"}') . '.' . Base64Url::encode('{"sub":"alice"}');
        self::assertSame($expectedInput . '.' . Base64Url::encode(hash_hmac('sha256', $expectedInput, Base64Url::decode(self::HS256_JWK['k']), true)), $token);
        self::assertSame([0, '{"sub":"alice"}', ''], self::jws(['verify', 'HS256'], self::json(['jwk' => self::HS256_JWK, 'token' => $token])));
    }

    public function testAPublishedTokenVerifies(): void
    {
        $claims = "{\"iss\":\"joe\",\r\n \"exp\":1300819380,\r\n \"http://example.com/is_root\":true}";
        self::assertSame([0, $claims, ''], self::jws(['verify', 'ES256'], self::json(['jwk' => KnownAnswers::RFC7515_ES256_KEY, 'token' => KnownAnswers::RFC7515_ES256])));
    }

    /** @return iterable<string, array{list<string>, string, array{int, string, string}}> */
    public static function refusals(): iterable
    {
        $header = static fn (string $json): string => Base64Url::encode($json) . '.' . Base64Url::encode('{}') . '.' . Base64Url::encode(str_repeat("\x01", 32));
        yield 'a header alg that is an integer' => [['verify', 'HS256'], $header('{"alg":256}'), [1, '', "header alg: expected a string, got int\n"]];
        yield 'a header alg of another algorithm' => [['verify', 'HS256'], $header('{"alg":"HS384"}'), [1, '', "header alg: expected \"HS256\", the algorithm bound to this key, got \"HS384\"\n"]];
        yield 'crit: []' => [['verify', 'HS256'], $header('{"alg":"HS256","crit":[]}'), [1, '', "header crit: expected no critical extensions this verifier does not understand, got []\n"]];
        yield 'an unknown algorithm' => [['verify', 'HS1'], $header('{"alg":"HS1"}'), [1, '', "expected one of ES256, ES384, ES512, RS256, RS384, RS512, PS256, PS384, PS512, EdDSA, HS256, HS384, HS512, got \"HS1\"\n"]];
        yield 'no algorithm' => [['verify'], $header('{"alg":"HS256"}'), [1, '', "expected one of ES256, ES384, ES512, RS256, RS384, RS512, PS256, PS384, PS512, EdDSA, HS256, HS384, HS512, got \"\"\n"]];
    }

    /**
     * A refused token is the project's exception, caught: one line, exit code 1, never a PHP error.
     *
     * @dataProvider refusals
     * @param list<string> $arguments
     * @param array{int, string, string} $expected
     */
    #[DataProvider('refusals')]
    public function testARefusedTokenIsOneLineAndExitCode1(array $arguments, string $token, array $expected): void
    {
        self::assertSame($expected, self::jws($arguments, self::json(['jwk' => self::HS256_JWK, 'token' => $token])));
    }

    public function testSigningWithAJwkForVerificationOnlyIsRefused(): void
    {
        self::assertSame(
            [1, '', "JWK key_ops: expected \"sign\" among them, got [\"verify\"] (RFC 7517 section 4.3)\n"],
            self::jws(['sign', 'HS256'], self::json(['jwk' => self::HS256_JWK + ['key_ops' => ['verify']], 'payload' => 'p'])),
        );
    }

    /** @return iterable<string, array{list<string>, string}> */
    public static function badUsage(): iterable
    {
        yield 'no command' => [[], self::json(['jwk' => self::HS256_JWK, 'payload' => 'p'])];
        yield 'another command' => [['decode', 'HS256'], self::json(['jwk' => self::HS256_JWK, 'token' => 'a.b.c'])];
        // (a command's text member is looked up by the command: an unknown one must not find the member "")
        yield 'another command, with a member named ""' => [['decode', 'HS256'], self::json(['jwk' => self::HS256_JWK, '' => 'a.b.c'])];
        yield 'input that is a JSON number' => [['verify', 'HS256'], '5'];
        yield 'input that is not JSON' => [['sign', 'HS256'], 'jwk'];
        yield 'input that is a JSON string' => [['sign', 'HS256'], '"jwk"'];
        yield 'no jwk' => [['sign', 'HS256'], self::json(['payload' => 'p'])];
        yield 'a jwk that is a string' => [['sign', 'HS256'], self::json(['jwk' => 'k', 'payload' => 'p'])];
        yield 'sign without a payload' => [['sign', 'HS256'], self::json(['jwk' => self::HS256_JWK, 'token' => 'a.b.c'])];
        yield 'sign with a payload that is an object' => [['sign', 'HS256'], self::json(['jwk' => self::HS256_JWK, 'payload' => ['sub' => 'a']])];
        yield 'verify without a token' => [['verify', 'HS256'], self::json(['jwk' => self::HS256_JWK, 'payload' => 'p'])];
        yield 'verify with a token that is a number' => [['verify', 'HS256'], self::json(['jwk' => self::HS256_JWK, 'token' => 5])];
    }

    /**
     * @dataProvider badUsage
     * @param list<string> $arguments
     */
    #[DataProvider('badUsage')]
    public function testBadUsageIsExitCode2WithTheUsageLine(array $arguments, string $stdin): void
    {
        self::assertSame([2, '', self::USAGE], self::jws($arguments, $stdin));
    }
}
