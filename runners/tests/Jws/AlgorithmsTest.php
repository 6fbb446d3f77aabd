<?php

declare(strict_types=1);

namespace PhpCryptoBench\Tests\Jws;

use OpenSSLAsymmetricKey;
use PhpCryptoBench\Exception\AlgorithmNotAllowed;
use PhpCryptoBench\Exception\SignatureRejected;
use PhpCryptoBench\Exception\WeakKey;
use PhpCryptoBench\Jws\Algorithms;
use PhpCryptoBench\Jws\Base64Url;
use PhpCryptoBench\Jws\CompactJws;
use PhpCryptoBench\Jws\Ecdsa;
use PhpCryptoBench\Jws\EdDsa;
use PhpCryptoBench\Jws\Hmac;
use PhpCryptoBench\Jws\Jwk;
use PhpCryptoBench\Jws\Key;
use PhpCryptoBench\Jws\KeyDetails;
use PhpCryptoBench\Jws\KeyFacts;
use PhpCryptoBench\Jws\KnownAnswers;
use PhpCryptoBench\Jws\OpensslKeyDetails;
use PhpCryptoBench\Jws\Rsa;
use PhpCryptoBench\Tests\Support\SharedKeys;
use PHPUnit\Framework\TestCase;
use PHPUnit\Framework\Attributes\DataProvider;

/** Each algorithm's key rules (RFC 7518, RFC 8037, RFC 8725), each refusal with the key that shows it. */
final class AlgorithmsTest extends TestCase
{
    /** A public RSA key whose modulus has exactly $bits bits: its top bit set, the rest a fixed odd pattern. */
    public static function rsaModulusOf(int $bits): OpenSSLAsymmetricKey
    {
        $bytes = intdiv($bits + 7, 8);
        $modulus = chr(0x80 >> (8 * $bytes - $bits)) . str_repeat("\x5b", $bytes - 1);
        $key = Jwk::import(['kty' => 'RSA', 'n' => Base64Url::encode($modulus), 'e' => 'AQAB']);
        self::assertSame($bits, openssl_pkey_get_details($key)['bits']);
        return $key;
    }

    /** @return iterable<string, array{string}> */
    public static function names(): iterable
    {
        foreach (Algorithms::NAMES as $name) {
            yield $name => [$name];
        }
    }

    /** @dataProvider names */
    #[DataProvider('names')]
    public function testEachNameGivesItsAlgorithm(string $name): void
    {
        $algorithm = Algorithms::named($name);
        self::assertSame($name, $algorithm->name());
        $hash = 'sha' . ($name === 'EdDSA' ? '512' : substr($name, 2));
        $class = ['ES' => Ecdsa::class, 'RS' => Rsa::class, 'PS' => Rsa::class, 'HS' => Hmac::class, 'Ed' => EdDsa::class][substr($name, 0, 2)];
        self::assertInstanceOf($class, $algorithm);
        if ($algorithm instanceof Rsa || $algorithm instanceof Ecdsa || $algorithm instanceof Hmac) {
            self::assertSame($hash, $algorithm->hash());
        }
        if ($algorithm instanceof Rsa || $algorithm instanceof Ecdsa) {
            // What openssl_sign() and openssl_verify() are given: the constant, not the name.
            self::assertSame(['sha256' => OPENSSL_ALGO_SHA256, 'sha384' => OPENSSL_ALGO_SHA384, 'sha512' => OPENSSL_ALGO_SHA512][$hash], $algorithm->digest());
        }
        if ($algorithm instanceof Rsa) {
            self::assertSame(str_starts_with($name, 'PS'), $algorithm->isPss());
        }
    }

    public function testTheListHoldsEveryAlgorithmOnce(): void
    {
        self::assertSame(['ES256', 'ES384', 'ES512', 'RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512', 'EdDSA', 'HS256', 'HS384', 'HS512'], Algorithms::NAMES);
    }

    public function testTheCurvesAndTheirSizesAreRfc7518s(): void
    {
        $curves = [];
        foreach (['ES256', 'ES384', 'ES512'] as $name) {
            $algorithm = Algorithms::named($name);
            self::assertInstanceOf(Ecdsa::class, $algorithm);
            $curves[$name] = [$algorithm->curve(), $algorithm->coordinateBytes];
        }
        self::assertSame(['ES256' => ['prime256v1', 32], 'ES384' => ['secp384r1', 48], 'ES512' => ['secp521r1', 66]], $curves);
    }

    public function testHmacTagsAreAsLongAsTheirHash(): void
    {
        foreach (['HS256' => 32, 'HS384' => 48, 'HS512' => 64] as $name => $bytes) {
            $algorithm = Algorithms::named($name);
            self::assertInstanceOf(Hmac::class, $algorithm);
            self::assertSame($bytes, $algorithm->bytes());
        }
    }

    /** @return iterable<string, array{string, string}> */
    public static function refusedNames(): iterable
    {
        yield 'none' => ['none', 'header alg: expected a signature algorithm, got "none" (an unsigned token is never accepted)'];
        yield 'None' => ['None', 'expected one of ES256, ES384, ES512, RS256, RS384, RS512, PS256, PS384, PS512, EdDSA, HS256, HS384, HS512, got "None"'];
        yield 'es256' => ['es256', 'expected one of ES256, ES384, ES512, RS256, RS384, RS512, PS256, PS384, PS512, EdDSA, HS256, HS384, HS512, got "es256"'];
        yield 'HS1' => ['HS1', 'expected one of ES256, ES384, ES512, RS256, RS384, RS512, PS256, PS384, PS512, EdDSA, HS256, HS384, HS512, got "HS1"'];
        yield 'nothing' => ['', 'expected one of ES256, ES384, ES512, RS256, RS384, RS512, PS256, PS384, PS512, EdDSA, HS256, HS384, HS512, got ""'];
    }

    /** @dataProvider refusedNames */
    #[DataProvider('refusedNames')]
    public function testOtherNamesAreRefused(string $name, string $message): void
    {
        $this->expectException(AlgorithmNotAllowed::class);
        $this->expectExceptionMessage($message);
        Algorithms::named($name);
    }

    /**
     * RFC 8725 section 3.5 and NIST SP 800-131A: 2048 bits at least. Moduli of exactly 2047 and 2048
     * bits, built with the top bit set, so the boundary is the same on every run.
     */
    public function testAnRsaKeyOf2048BitsIsAcceptedAndOneOf2047IsNot(): void
    {
        self::assertSame(2048, Rsa::MINIMUM_BITS);
        foreach (['RS256', 'PS256'] as $name) {
            self::assertSame(2048, Key::forVerification(Algorithms::named($name), self::rsaModulusOf(2048))->facts->bits);
            try {
                Key::forVerification(Algorithms::named($name), self::rsaModulusOf(2047));
                self::fail("$name took a 2047-bit key");
            } catch (WeakKey $e) {
                self::assertSame("$name: expected an RSA key of at least 2048 bits, got 2047", $e->getMessage());
            }
        }
    }

    public function testAnRsaSignatureIsAsLongAsTheModulus(): void
    {
        $key = Key::forVerification(Algorithms::named('RS256'), self::rsaModulusOf(2049));
        self::assertSame(257, $key->facts->modulusBytes(), '2049 bits take 257 bytes');
        self::assertSame(256, Key::forVerification(Algorithms::named('RS256'), self::rsaModulusOf(2048))->facts->modulusBytes());
        $this->expectException(SignatureRejected::class);
        $this->expectExceptionMessage('RS256: expected a 257-byte signature, got 256 bytes');
        Algorithms::named('RS256')->verify($key, 'input', str_repeat("\x01", 256));
    }

    /** @return iterable<string, array{string, bool, \Closure(): mixed, string}> */
    public static function keysOfTheWrongHalf(): iterable
    {
        $ec = static fn (): mixed => openssl_pkey_new(['private_key_type' => OPENSSL_KEYTYPE_EC, 'curve_name' => 'prime256v1']);
        $rsa = static fn (): mixed => Jwk::import(KnownAnswers::RFC7520_RSA);
        yield 'ES256 signing with a public key' => ['ES256', true, static fn (): mixed => Jwk::import(Jwk::publicOf($ec())), 'ES256: expected a private key to sign with, got a public key'];
        yield 'ES256 verifying with a private key' => ['ES256', false, $ec, 'ES256: expected a public key to verify with, got a private key (verify with its public half: Jwk::publicOf)'];
        yield 'RS256 signing with a public key' => ['RS256', true, static fn (): mixed => Jwk::import(Jwk::publicOf($rsa())), 'RS256: expected a private key to sign with, got a public key'];
        yield 'RS256 verifying with a private key' => ['RS256', false, $rsa, 'RS256: expected a public key to verify with, got a private key (verify with its public half: Jwk::publicOf)'];
        yield 'PS384 verifying with a private key' => ['PS384', false, $rsa, 'PS384: expected a public key to verify with, got a private key (verify with its public half: Jwk::publicOf)'];
        yield 'EdDSA signing with a public key' => ['EdDSA', true, static fn (): mixed => str_repeat("\x01", 32), 'EdDSA: expected a 64-byte Ed25519 secret key, got 32 bytes'];
        yield 'EdDSA verifying with a secret key' => ['EdDSA', false, static fn (): mixed => str_repeat("\x01", 64), 'EdDSA: expected a 32-byte Ed25519 public key, got 64 bytes'];
        yield 'EdDSA verifying with an OpenSSL key' => ['EdDSA', false, $ec, 'EdDSA: expected a 32-byte Ed25519 public key, got OpenSSLAsymmetricKey'];
    }

    /**
     * A key is made for one operation: PHP's openssl_verify() refuses a private key object (with a
     * warning, for every token), so a verifier given one is refused when it is made, not at each token.
     *
     * @dataProvider keysOfTheWrongHalf
     */
    #[DataProvider('keysOfTheWrongHalf')]
    public function testAKeyOfTheWrongHalfIsRefusedWhenMade(string $name, bool $forSigning, \Closure $material, string $message): void
    {
        self::assertRefused(WeakKey::class, $message, static fn () => $forSigning ? Key::forSigning(Algorithms::named($name), $material()) : Key::forVerification(Algorithms::named($name), $material()));
    }

    /** @param class-string<\Throwable> $class the exception, with exactly $message */
    private static function assertRefused(string $class, string $message, \Closure $attempt): void
    {
        try {
            $attempt();
        } catch (\Throwable $e) {
            self::assertInstanceOf($class, $e);
            self::assertSame($message, $e->getMessage());
            return;
        }
        self::fail("accepted, expected $class: $message");
    }

    /**
     * OpenSSL's own refusal to sign is the project's exception: a key whose details (the seam) claim a
     * private half it lacks gets past facts(), and openssl_sign() then fails (its warning silenced here).
     */
    public function testASignatureOpensslRefusesIsSignatureRejected(): void
    {
        $lying = new class () implements KeyDetails {
            public function of(OpenSSLAsymmetricKey $key): array|false
            {
                $details = openssl_pkey_get_details($key);
                foreach (['rsa', 'ec'] as $family) {
                    if (isset($details[$family])) {
                        $details[$family]['d'] = "\x01";
                    }
                }
                return $details;
            }
        };
        $keys = ['RS256' => Jwk::import(KnownAnswers::RFC7515_RS256_KEY), 'ES256' => Jwk::import(KnownAnswers::RFC7515_ES256_KEY)];
        foreach ($keys as $name => $public) {
            $signer = Key::forSigning(Algorithms::named($name), $public, $lying);
            // PHP refuses the public key itself, before OpenSSL has a reason to queue.
            self::assertRefused(SignatureRejected::class, "$name: expected a signature, signing failed: no error text", static fn () => @CompactJws::sign($signer, 'x'));
        }
    }

    /** @return iterable<string, array{string, \Closure(): mixed, string}> */
    public static function keysOfAnotherKind(): iterable
    {
        $p384 = static fn (): mixed => openssl_pkey_new(['private_key_type' => OPENSSL_KEYTYPE_EC, 'curve_name' => 'secp384r1']);
        yield 'ES256 with a P-384 key' => ['ES256', static fn (): mixed => Jwk::import(Jwk::publicOf($p384())), 'ES256: expected a key on prime256v1, got a key on secp384r1'];
        yield 'ES256 with an RSA key' => ['ES256', static fn (): mixed => Jwk::import(['kty' => 'RSA', 'n' => KnownAnswers::RFC7520_RSA['n'], 'e' => 'AQAB']), 'ES256: expected an EC key on prime256v1, got OpenSSLAsymmetricKey of another type'];
        yield 'RS256 with an EC key' => ['RS256', static fn (): mixed => Jwk::import(Jwk::publicOf($p384())), 'RS256: expected an RSA key, got OpenSSLAsymmetricKey of another type'];
        yield 'RS256 with a PEM string' => ['RS256', static fn (): mixed => '-----BEGIN PUBLIC KEY-----', 'RS256: expected an RSA key, got string'];
        yield 'HS256 with an asymmetric key' => ['HS256', $p384, 'HS256: expected a shared secret (string), got an asymmetric key'];
        yield 'HS256 with an array' => ['HS256', static fn (): mixed => ['k' => 'secret'], 'HS256: expected a shared secret (string), got array'];
        yield 'HS256 with PEM text' => ['HS256', static fn (): mixed => "-----BEGIN PUBLIC KEY-----\n" . str_repeat('A', 64), 'HS256: expected a random shared secret, got PEM text, which looks like a public key'];
        yield 'HS256 with 31 bytes' => ['HS256', static fn (): mixed => str_repeat('k', 31), 'HS256: expected a secret of at least 32 bytes (the hash size, RFC 7518 section 3.2), got 31'];
        yield 'HS384 with 47 bytes' => ['HS384', static fn (): mixed => str_repeat('k', 47), 'HS384: expected a secret of at least 48 bytes (the hash size, RFC 7518 section 3.2), got 47'];
        yield 'HS512 with 63 bytes' => ['HS512', static fn (): mixed => str_repeat('k', 63), 'HS512: expected a secret of at least 64 bytes (the hash size, RFC 7518 section 3.2), got 63'];
    }

    /** @dataProvider keysOfAnotherKind */
    #[DataProvider('keysOfAnotherKind')]
    public function testAKeyOfAnotherKindIsRefused(string $name, \Closure $material, string $message): void
    {
        self::assertRefused(WeakKey::class, $message, static fn () => Key::forVerification(Algorithms::named($name), $material()));
    }

    /** @return iterable<string, array{string, mixed, KeyFacts}> */
    public static function acceptedKeys(): iterable
    {
        yield 'HS256, 32 bytes' => ['HS256', str_repeat('k', 32), new KeyFacts('oct', 256, null, true)];
        yield 'HS256, 33 bytes' => ['HS256', str_repeat('k', 33), new KeyFacts('oct', 264, null, true)];
        yield 'HS512, 64 bytes' => ['HS512', str_repeat('k', 64), new KeyFacts('oct', 512, null, true)];
        yield 'EdDSA, a public key' => ['EdDSA', Base64Url::decode(KnownAnswers::RFC8037_KEY['x']), new KeyFacts('OKP', 253, 'Ed25519', false)];
        yield 'ES256, a public key' => ['ES256', Jwk::import(KnownAnswers::RFC7515_ES256_KEY), new KeyFacts('EC', 256, 'prime256v1', false)];
    }

    /** @dataProvider acceptedKeys */
    #[DataProvider('acceptedKeys')]
    public function testAVerificationKeyKnowsWhatItIs(string $name, mixed $material, KeyFacts $facts): void
    {
        $key = Key::forVerification(Algorithms::named($name), $material);
        self::assertEquals($facts, $key->facts);
        self::assertFalse($key->signs);
        self::assertSame($material, $key->material);
        self::assertTrue(Key::forSigning(Algorithms::named('HS256'), str_repeat('k', 32))->signs);
    }

    /** @return iterable<string, array{string, int, int}> */
    public static function signatureLengths(): iterable
    {
        yield 'EdDSA one byte short' => ['EdDSA', 63, 64];
        yield 'EdDSA one byte long' => ['EdDSA', 65, 64];
        yield 'HS256 one byte short' => ['HS256', 31, 32];
        yield 'HS256 one byte long' => ['HS256', 33, 32];
        yield 'HS512 as long as HS256\'s' => ['HS512', 32, 64];
        yield 'RS256 one byte long' => ['RS256', 257, 256];
        yield 'ES512 as long as ES256\'s' => ['ES512', 64, 132];
    }

    /** @dataProvider signatureLengths */
    #[DataProvider('signatureLengths')]
    public function testASignatureOfTheWrongLengthIsRefusedByLength(string $name, int $length, int $expected): void
    {
        $algorithm = Algorithms::named($name);
        $material = match ($name) {
            'EdDSA' => Base64Url::decode(KnownAnswers::RFC8037_KEY['x']),
            'HS256', 'HS512' => str_repeat('k', 64),
            'RS256' => Jwk::import(['kty' => 'RSA', 'n' => KnownAnswers::RFC7520_RSA['n'], 'e' => 'AQAB']),
            default => Jwk::import(KnownAnswers::RFC7520_ES512_KEY),
        };
        $this->expectException(SignatureRejected::class);
        $this->expectExceptionMessage("$name: expected a $expected-byte signature, got $length bytes");
        $algorithm->verify(Key::forVerification($algorithm, $material), 'input', str_repeat("\x01", $length));
    }

    public function testAnEd25519SignatureOfTheRightLengthThatDoesNotVerifyIsFalse(): void
    {
        $algorithm = Algorithms::named('EdDSA');
        $key = Key::forVerification($algorithm, Base64Url::decode(KnownAnswers::RFC8037_KEY['x']));
        self::assertFalse($algorithm->verify($key, 'input', str_repeat("\x01", 64)));
        // A public key sodium refuses (all zero bytes, a point of small order) is a failed verification, not an error.
        self::assertFalse($algorithm->verify(Key::forVerification($algorithm, str_repeat("\0", 32)), 'input', str_repeat("\x01", 64)));
    }

    /** Refusals OpenSSL queues a reason for (bad padding; r and s beyond the curve's order) leave none queued. */
    public function testAnOpensslSignatureThatDoesNotVerifyLeavesNoErrorQueued(): void
    {
        foreach (['RS256' => [KnownAnswers::RFC7515_RS256_KEY, "\x01", 256], 'ES256' => [KnownAnswers::RFC7515_ES256_KEY, "\xff", 64]] as $name => [$jwk, $byte, $bytes]) {
            $algorithm = Algorithms::named($name);
            self::assertFalse($algorithm->verify(Key::forVerification($algorithm, Jwk::import($jwk)), 'input', str_repeat($byte, $bytes)), $name);
            self::assertFalse(openssl_error_string(), "$name: the refusal's reasons were drained");
        }
    }

    public function testKeyDetailsComeFromOpenssl(): void
    {
        $key = Jwk::import(KnownAnswers::RFC7515_ES256_KEY);
        self::assertEquals(openssl_pkey_get_details($key), (new OpensslKeyDetails())->of($key));
    }

    /** Signing goes through each algorithm's primitive: the published tokens' signatures are reproduced or verify. */
    public function testEachFamilySignsWhatItsVerifierAccepts(): void
    {
        $keys = [
            'ES384' => openssl_pkey_new(['private_key_type' => OPENSSL_KEYTYPE_EC, 'curve_name' => 'secp384r1']),
            'RS512' => Jwk::import(KnownAnswers::RFC7520_RSA),
            'PS512' => SharedKeys::rsa(2048),
            'EdDSA' => Jwk::import(KnownAnswers::RFC8037_KEY),
        ];
        foreach ($keys as $name => $private) {
            $algorithm = Algorithms::named($name);
            $token = CompactJws::sign(Key::forSigning($algorithm, $private), 'payload');
            self::assertSame('payload', CompactJws::verify($token, Key::forVerification($algorithm, Jwk::import(Jwk::publicOf($private))))->payload, $name);
        }
        $hs = Key::forSigning(Algorithms::named('HS384'), str_repeat('k', 48));
        [$header, $payload, $tag] = explode('.', CompactJws::sign($hs, 'payload'));
        self::assertSame(hash_hmac('sha384', "$header.$payload", str_repeat('k', 48), true), Base64Url::decode($tag));
    }
}
