<?php

declare(strict_types=1);

namespace PhpCryptoBench\Tests\Jws;

use PhpCryptoBench\Exception\KeyUseRefused;
use PhpCryptoBench\Jws\Algorithms;
use PhpCryptoBench\Jws\CompactJws;
use PhpCryptoBench\Jws\Jwk;
use PhpCryptoBench\Jws\Key;
use PHPUnit\Framework\TestCase;
use PHPUnit\Framework\Attributes\DataProvider;

/** RFC 7517 sections 4.2-4.4: a JWK's use, key_ops and alg decide what it may sign or verify. */
final class JwkUsageTest extends TestCase
{
    /** @return array{array<string, string>, array<string, string>} a P-256 private JWK and its public JWK */
    private static function p256(): array
    {
        $private = openssl_pkey_new(['private_key_type' => OPENSSL_KEYTYPE_EC, 'curve_name' => 'prime256v1']);
        self::assertNotFalse($private);
        $details = openssl_pkey_get_details($private);
        self::assertIsArray($details);
        $public = Jwk::publicOf($private);
        return [$public + ['d' => rtrim(strtr(base64_encode(str_pad($details['ec']['d'], 32, "\0", STR_PAD_LEFT)), '+/', '-_'), '=')], $public];
    }

    /** @return iterable<string, array{array<string, mixed>, string}> */
    public static function refusedForVerification(): iterable
    {
        yield 'use enc (RFC 7517 4.2)' => [['use' => 'enc'], 'JWK use: expected "sig" to verify, got "enc"'];
        yield 'use of another kind' => [['use' => 'wrap'], 'JWK use: expected "sig" to verify, got "wrap"'];
        yield 'key_ops without verify (4.3)' => [['key_ops' => ['sign']], 'JWK key_ops: expected "verify" among them, got ["sign"]'];
        yield 'key_ops for encryption' => [['key_ops' => ['encrypt', 'decrypt']], 'JWK key_ops: expected "verify" among them, got ["encrypt","decrypt"]'];
        yield 'key_ops empty' => [['key_ops' => []], 'JWK key_ops: expected "verify" among them, got []'];
        yield 'key_ops duplicated' => [['key_ops' => ['verify', 'verify']], 'JWK key_ops: expected no duplicate values, got ["verify","verify"]'];
        yield 'key_ops not a list' => [['key_ops' => 'verify'], 'JWK key_ops: expected an array of strings, got "verify"'];
        yield 'use sig beside key_ops for encryption' => [['use' => 'sig', 'key_ops' => ['verify', 'encrypt']], 'JWK use "sig" with key_ops ["verify","encrypt"]: expected only "sign" and "verify" beside it'];
        yield 'alg of another algorithm (4.4)' => [['alg' => 'ES384'], 'JWK alg: expected "ES256", the algorithm asked for, got "ES384"'];
        yield 'alg none' => [['alg' => 'none'], 'JWK alg: expected "ES256", the algorithm asked for, got "none"'];
        yield 'use not a string' => [['use' => true], 'JWK use: expected a string, got true'];
        // Loosely, "" == null: present but empty is not absent.
        yield 'use empty' => [['use' => ''], 'JWK use: expected "sig" to verify, got ""'];
        yield 'use null' => [['use' => null], 'JWK use: expected a string, got null'];
        yield 'use INF (no JSON)' => [['use' => INF], 'JWK use: expected a string, got float'];
        yield 'alg empty' => [['alg' => ''], 'JWK alg: expected "ES256", the algorithm asked for, got ""'];
        yield 'alg null' => [['alg' => null], 'JWK alg: expected a string, got null'];
        yield 'key_ops null' => [['key_ops' => null], 'JWK key_ops: expected an array of strings, got null'];
        yield 'key_ops an object' => [['key_ops' => ['op' => 'verify']], 'JWK key_ops: expected an array of strings, got {"op":"verify"}'];
        yield 'key_ops with a number' => [['key_ops' => ['verify', 5]], 'JWK key_ops: expected an array of strings, got ["verify",5]'];
        yield 'key_ops with bytes that are not UTF-8' => [['key_ops' => ["\xff"]], 'JWK key_ops: expected "verify" among them, got ["\ufffd"]'];
    }

    /**
     * @dataProvider refusedForVerification
     * @param array<string, mixed> $declared
     */
    #[DataProvider('refusedForVerification')]
    public function testAVerificationKeyThatDoesNotDeclareItIsRefused(array $declared, string $message): void
    {
        [$private, $public] = self::p256();
        $algorithm = Algorithms::named('ES256');
        $token = CompactJws::sign(Key::signingJwk($algorithm, $private), 'payload');
        self::assertSame('payload', CompactJws::verify($token, Key::verificationJwk($algorithm, $public))->payload, 'the key itself is good');

        $this->expectException(KeyUseRefused::class);
        $this->expectExceptionMessage($message);
        Key::verificationJwk($algorithm, $public + $declared);
    }

    /** @return iterable<string, array{array<string, mixed>}> */
    public static function allowedForVerification(): iterable
    {
        yield 'nothing declared' => [[]];
        yield 'use sig' => [['use' => 'sig']];
        yield 'key_ops verify' => [['key_ops' => ['verify']]];
        yield 'key_ops sign and verify, use sig' => [['use' => 'sig', 'key_ops' => ['sign', 'verify']]];
        yield 'alg ES256' => [['alg' => 'ES256']];
        // Without use, key_ops may name other operations too (RFC 7517 section 4.3 asks consistency only of both).
        yield 'key_ops verify and wrapKey, no use' => [['key_ops' => ['verify', 'wrapKey']]];
    }

    /**
     * @dataProvider allowedForVerification
     * @param array<string, mixed> $declared
     */
    #[DataProvider('allowedForVerification')]
    public function testAVerificationKeyThatAllowsItVerifies(array $declared): void
    {
        [$private, $public] = self::p256();
        $algorithm = Algorithms::named('ES256');
        $token = CompactJws::sign(Key::signingJwk($algorithm, $private), 'payload');
        self::assertSame('payload', CompactJws::verify($token, Key::verificationJwk($algorithm, $public + $declared))->payload);
    }

    public function testASigningKeyNeedsSignInItsKeyOps(): void
    {
        [$private] = self::p256();
        $algorithm = Algorithms::named('ES256');
        self::assertNotSame('', CompactJws::sign(Key::signingJwk($algorithm, $private + ['key_ops' => ['sign']]), 'p'));

        $this->expectException(KeyUseRefused::class);
        $this->expectExceptionMessage('JWK key_ops: expected "sign" among them, got ["verify"]');
        Key::signingJwk($algorithm, $private + ['key_ops' => ['verify']]);
    }

    public function testASigningKeyForEncryptionIsRefused(): void
    {
        [$private] = self::p256();
        $this->expectException(KeyUseRefused::class);
        $this->expectExceptionMessage('JWK use: expected "sig" to sign, got "enc"');
        Key::signingJwk(Algorithms::named('ES256'), $private + ['use' => 'enc']);
    }

    public function testAnHmacSecretIsBoundToItsAlg(): void
    {
        $secret = ['kty' => 'oct', 'k' => rtrim(strtr(base64_encode(str_repeat("\x42", 32)), '+/', '-_'), '='), 'alg' => 'HS256'];
        self::assertNotSame('', CompactJws::sign(Key::signingJwk(Algorithms::named('HS256'), $secret), 'p'));

        $this->expectException(KeyUseRefused::class);
        $this->expectExceptionMessage('JWK alg: expected "HS512", the algorithm asked for, got "HS256"');
        Key::signingJwk(Algorithms::named('HS512'), $secret);
    }

    public function testTheCommandLineRefusesAnEncryptionKeyWithOneLine(): void
    {
        [$private, $public] = self::p256();
        $token = CompactJws::sign(Key::signingJwk(Algorithms::named('ES256'), $private), 'payload');
        $run = static function (array $jwk) use ($token): array {
            $process = proc_open(
                [PHP_BINARY, dirname(__DIR__, 2) . '/jws.php', 'verify', 'ES256'],
                [0 => ['pipe', 'r'], 1 => ['pipe', 'w'], 2 => ['pipe', 'w']],
                $pipes,
            );
            self::assertIsResource($process);
            fwrite($pipes[0], (string) json_encode(['jwk' => $jwk, 'token' => $token]));
            fclose($pipes[0]);
            $out = (string) stream_get_contents($pipes[1]);
            $err = (string) stream_get_contents($pipes[2]);
            return [proc_close($process), $out, $err];
        };

        self::assertSame([0, 'payload', ''], $run($public));
        self::assertSame(
            [1, '', "JWK use: expected \"sig\" to verify, got \"enc\" (RFC 7517 section 4.2)\n"],
            $run($public + ['use' => 'enc']),
        );
    }
}
