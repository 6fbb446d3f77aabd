<?php

declare(strict_types=1);

namespace PhpCryptoBench\Tests\Jws;

use DateTimeImmutable;
use PhpCryptoBench\Exception\AlgorithmNotAllowed;
use PhpCryptoBench\Exception\ClaimRejected;
use PhpCryptoBench\Exception\MalformedToken;
use PhpCryptoBench\Exception\SignatureRejected;
use PhpCryptoBench\Exception\WeakKey;
use PhpCryptoBench\Harness\WallClock;
use PhpCryptoBench\Jws\Algorithms;
use PhpCryptoBench\Jws\AttackChecks;
use PhpCryptoBench\Jws\Base64Url;
use PhpCryptoBench\Jws\CompactJws;
use PhpCryptoBench\Jws\Jwk;
use PhpCryptoBench\Jws\Key;
use PhpCryptoBench\Jws\KnownAnswers;
use PhpCryptoBench\Jws\WycheproofSignatureSuite;
use PHPUnit\Framework\TestCase;
use PHPUnit\Framework\Attributes\DataProvider;

final class CompactJwsTest extends TestCase
{
    private static function es256(): array
    {
        $private = openssl_pkey_new(['private_key_type' => OPENSSL_KEYTYPE_EC, 'curve_name' => 'prime256v1']);
        $algorithm = Algorithms::named('ES256');
        return [Key::forSigning($algorithm, $private), Key::forVerification($algorithm, Jwk::import(Jwk::publicOf($private)))];
    }

    private static function clockAt(int $timestamp): WallClock
    {
        return new class ($timestamp) implements WallClock {
            public function __construct(private readonly int $timestamp)
            {
            }

            public function now(): DateTimeImmutable
            {
                return (new DateTimeImmutable())->setTimestamp($this->timestamp);
            }

            public function timestamp(): int
            {
                return $this->timestamp;
            }
        };
    }

    public function testRfc7520Rs256IsReproducedByteForByte(): void
    {
        $key = Key::forSigning(Algorithms::named('RS256'), Jwk::import(KnownAnswers::RFC7520_RSA));
        self::assertSame(KnownAnswers::RFC7520_RS256, CompactJws::sign($key, KnownAnswers::RFC7520_PAYLOAD, ['kid' => 'bilbo.baggins@hobbiton.example']));
    }

    public function testRfc8037Ed25519IsReproducedByteForByte(): void
    {
        $key = Key::forSigning(Algorithms::named('EdDSA'), Jwk::import(KnownAnswers::RFC8037_KEY));
        self::assertSame(KnownAnswers::RFC8037_TOKEN, CompactJws::sign($key, 'Example of Ed25519 signing'));
    }

    /** @return iterable<string, array{string, array<string, string>, string}> */
    public static function publishedTokens(): iterable
    {
        yield 'RFC 7515 A.1 HS256' => ['HS256', KnownAnswers::RFC7515_HS256_KEY, KnownAnswers::RFC7515_HS256];
        yield 'RFC 7515 A.2 RS256' => ['RS256', KnownAnswers::RFC7515_RS256_KEY, KnownAnswers::RFC7515_RS256];
        yield 'RFC 7515 A.3 ES256' => ['ES256', KnownAnswers::RFC7515_ES256_KEY, KnownAnswers::RFC7515_ES256];
        yield 'RFC 7520 4.2 PS384' => ['PS384', ['kty' => 'RSA', 'n' => KnownAnswers::RFC7520_RSA['n'], 'e' => 'AQAB'], KnownAnswers::RFC7520_PS384];
        yield 'RFC 7520 4.3 ES512' => ['ES512', KnownAnswers::RFC7520_ES512_KEY, KnownAnswers::RFC7520_ES512];
        yield 'RFC 8037 A.5 EdDSA' => ['EdDSA', ['kty' => 'OKP', 'crv' => 'Ed25519', 'x' => KnownAnswers::RFC8037_KEY['x']], KnownAnswers::RFC8037_TOKEN];
    }

    /** @dataProvider publishedTokens */
    #[DataProvider('publishedTokens')]
    public function testPublishedTokensVerifyAndFailWhenTouched(string $alg, array $jwk, string $token): void
    {
        $key = Key::forVerification(Algorithms::named($alg), Jwk::import($jwk));
        self::assertNotSame('', CompactJws::verify($token, $key)->payload);
        [$header, $payload, $signature] = explode('.', $token);
        $this->expectException(SignatureRejected::class);
        CompactJws::verify($header . '.' . Base64Url::encode(Base64Url::decode($payload) . ' ') . '.' . $signature, $key);
    }

    public function testRfc7515AppendixA5UnsecuredJwsIsRefused(): void
    {
        [, $verifier] = self::es256();
        $this->expectException(AlgorithmNotAllowed::class);
        $this->expectExceptionMessage('header alg: expected a signature algorithm, got "none"');
        CompactJws::verify('eyJhbGciOiJub25lIn0.eyJpc3MiOiJqb2UiLA0KICJleHAiOjEzMDA4MTkzODAsDQogImh0dHA6Ly9leGFtcGxlLmNvbS9pc19yb290Ijp0cnVlfQ.', $verifier);
    }

    public function testWycheproofVectorsGiveTheExpectedResultThroughTheSignatureLayer(): void
    {
        $reports = (new WycheproofSignatureSuite(REPOSITORY . '/vectors/wycheproof'))->runAll();
        $counts = array_combine(array_map(static fn ($r) => $r->source, $reports), array_map(static fn ($r) => [$r->passed, $r->skippedCount()], $reports));
        self::assertSame([262, 0], $counts['ecdsa_secp256r1_sha256_p1363_test.json']);
        self::assertSame([318, 0], $counts['ecdsa_secp521r1_sha512_p1363_test.json']);
        self::assertSame([151, 0], $counts['ed25519_test.json']);
        self::assertSame([258, 1], $counts['rsa_signature_2048_sha256_test.json']);
    }

    public function testEveryAttackCheckIsRefusedWithItsOwnException(): void
    {
        self::assertCount(12, AttackChecks::run());
    }

    /** @return iterable<string, array{class-string, string}> */
    public static function refusals(): iterable
    {
        yield 'alg none' => [AlgorithmNotAllowed::class, '{"alg":"none"}'];
        yield 'another algorithm than the key\'s' => [AlgorithmNotAllowed::class, '{"alg":"ES384"}'];
        yield 'no alg' => [AlgorithmNotAllowed::class, '{"typ":"JWT"}'];
        yield 'a critical extension' => [AlgorithmNotAllowed::class, '{"alg":"ES256","crit":["exp"]}'];
        yield 'a header that is a string' => [MalformedToken::class, '"ES256"'];
        yield 'a header that is not JSON' => [MalformedToken::class, '{alg:ES256}'];
    }

    /** @dataProvider refusals */
    #[DataProvider('refusals')]
    public function testHeadersThatMustBeRefused(string $exception, string $header): void
    {
        [$signer, $verifier] = self::es256();
        [, $payload, $signature] = explode('.', CompactJws::sign($signer, 'x'));
        $this->expectException($exception);
        CompactJws::verify(Base64Url::encode($header) . ".$payload.$signature", $verifier);
    }

    /** @return iterable<string, array{string}> */
    public static function nonCanonicalBase64(): iterable
    {
        yield 'padding' => ['eyJ9='];
        yield 'standard alphabet' => ['ab+/'];
        yield 'non-zero trailing bits' => ['eR'];
        yield 'an impossible length' => ['abcde'];
        yield 'a trailing newline' => ["QUI\n"];
    }

    /** @dataProvider nonCanonicalBase64 */
    #[DataProvider('nonCanonicalBase64')]
    public function testNonCanonicalBase64UrlIsRefused(string $text): void
    {
        $this->expectException(MalformedToken::class);
        Base64Url::decode($text);
    }

    /** The table of canonical last characters agrees with the definition: re-encoding gives the text back. */
    public function testEveryLastCharacterIsAcceptedExactlyWhenItsEncodingIsCanonical(): void
    {
        $alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
        $accepted = 0;
        foreach (['Q', 'QU', 'QUJ', 'QUJD'] as $prefix) {
            foreach (str_split($alphabet) as $last) {
                $text = $prefix . $last;
                $canonical = Base64Url::encode((string) base64_decode(strtr($text, '-_', '+/'))) === $text;
                try {
                    Base64Url::decode($text);
                    $decoded = true;
                } catch (MalformedToken) {
                    $decoded = false;
                }
                self::assertSame($canonical, $decoded, $text);
                $accepted += (int) $decoded;
            }
        }
        self::assertSame(4 + 16 + 64 + 0, $accepted, '4 endings after 2 characters of a group, 16 after 3, all 64 after 4, none after 1');
    }

    public function testATokenWithoutThreePartsIsRefused(): void
    {
        [, $verifier] = self::es256();
        $this->expectExceptionMessage('expected a compact JWS of 3 dot-separated parts, got 2');
        CompactJws::verify('a.b', $verifier);
    }

    public function testKeysThatDoNotFitTheirAlgorithmAreRefused(): void
    {
        $p384 = openssl_pkey_new(['private_key_type' => OPENSSL_KEYTYPE_EC, 'curve_name' => 'secp384r1']);
        $cases = [
            'ES256 with a P-384 key' => fn () => Key::forVerification(Algorithms::named('ES256'), $p384),
            'RS256 with an EC key' => fn () => Key::forVerification(Algorithms::named('RS256'), $p384),
            'HS256 with an asymmetric key' => fn () => Key::forVerification(Algorithms::named('HS256'), $p384),
            'HS512 with 32 bytes' => fn () => Key::forVerification(Algorithms::named('HS512'), random_bytes(32)),
            'EdDSA signing with a public key' => fn () => Key::forSigning(Algorithms::named('EdDSA'), random_bytes(32)),
            'ES256 signing with a public key' => fn () => Key::forSigning(Algorithms::named('ES384'), Jwk::import(Jwk::publicOf($p384))),
        ];
        foreach ($cases as $name => $attempt) {
            try {
                $attempt();
                self::fail("$name was accepted");
            } catch (WeakKey) {
                self::addToAssertionCount(1);
            }
        }
    }

    public function testExpiredAndNotYetValidTokensAreRefusedByAFixedClock(): void
    {
        [$signer, $verifier] = self::es256();
        $token = CompactJws::signClaims($signer, ['sub' => 'alice', 'nbf' => 1000, 'exp' => 2000]);
        self::assertSame('alice', CompactJws::verifyJwt($token, $verifier, self::clockAt(1500))->claims['sub'] ?? null);
        foreach ([999 => 'nbf: expected a time at or before now (999), got 1000', 2000 => 'exp: expected a time after now (2000), got 2000'] as $now => $message) {
            try {
                CompactJws::verifyJwt($token, $verifier, self::clockAt($now));
                self::fail("accepted at $now");
            } catch (ClaimRejected $e) {
                self::assertSame($message, $e->getMessage());
            }
        }
    }

    public function testANonNumericExpIsRefused(): void
    {
        [$signer, $verifier] = self::es256();
        $this->expectException(ClaimRejected::class);
        $this->expectExceptionMessage('exp: expected a NumericDate (an integer), got string');
        CompactJws::verifyJwt(CompactJws::signClaims($signer, ['exp' => '2000']), $verifier, self::clockAt(1000));
    }

    public function testHmacComparesWithHashEqualsAndRefusesAShortTag(): void
    {
        $key = Key::forVerification(Algorithms::named('HS256'), str_repeat('k', 32));
        $token = CompactJws::sign(Key::forSigning(Algorithms::named('HS256'), str_repeat('k', 32)), 'x');
        [$header, $payload, $tag] = explode('.', $token);
        $this->expectException(SignatureRejected::class);
        $this->expectExceptionMessage('HS256: expected a 32-byte signature, got 16 bytes');
        CompactJws::verify("$header.$payload." . Base64Url::encode(substr(Base64Url::decode($tag), 0, 16)), $key);
    }

    public function testATokenOfFourPartsIsRefused(): void
    {
        [$signer, $verifier] = self::es256();
        $this->expectException(MalformedToken::class);
        $this->expectExceptionMessage('expected a compact JWS of 3 dot-separated parts, got 4');
        CompactJws::verify(CompactJws::sign($signer, 'x') . '.e30', $verifier);
    }

    public function testTheNbfInstantItselfIsValid(): void
    {
        [$signer, $verifier] = self::es256();
        $token = CompactJws::signClaims($signer, ['sub' => 'alice', 'nbf' => 1000]);
        self::assertSame('alice', CompactJws::verifyJwt($token, $verifier, self::clockAt(1000))->claims['sub'] ?? null);
    }

    public function testAnExpOfNullIsRefusedNotTakenForAbsent(): void
    {
        [$signer, $verifier] = self::es256();
        $this->expectException(ClaimRejected::class);
        $this->expectExceptionMessage('exp: expected a NumericDate (an integer), got null');
        CompactJws::verifyJwt(CompactJws::signClaims($signer, ['exp' => null]), $verifier, self::clockAt(1000));
    }

    public function testAClaimsSetThatIsNotAnObjectIsRefusedNamingTheClaimsSet(): void
    {
        [$signer, $verifier] = self::es256();
        $token = CompactJws::sign($signer, '[1]');
        self::assertSame('[1]', CompactJws::verify($token, $verifier)->payload, 'a JWS may carry any payload');
        $this->expectExceptionObject(MalformedToken::claimsNotObject('array'));
        CompactJws::verifyJwt($token, $verifier, self::clockAt(1000));
    }

    public function testAHeaderThatIsNotAnObjectIsRefusedNamingTheHeader(): void
    {
        [, $verifier] = self::es256();
        $this->expectExceptionObject(MalformedToken::headerNotObject('array'));
        CompactJws::verify(Base64Url::encode('[]') . '.e30.c2ln', $verifier);
    }

    public function testClaimsBeyondTheDecodersDepthLimitOf64AreRefused(): void
    {
        [$signer, $verifier] = self::es256();
        // json_decode's depth 64 counts the empty innermost array as a level: 63 brackets pass, 64 do not.
        $nested = static fn (int $arrays): string => '{"a":' . str_repeat('[', $arrays) . str_repeat(']', $arrays) . '}';
        $deepest = CompactJws::sign($signer, $nested(62));
        self::assertArrayHasKey('a', CompactJws::verifyJwt($deepest, $verifier, self::clockAt(1000))->claims);
        $this->expectExceptionObject(MalformedToken::claimsNotObject('text that is not JSON'));
        CompactJws::verifyJwt(CompactJws::sign($signer, $nested(63)), $verifier, self::clockAt(1000));
    }
}
