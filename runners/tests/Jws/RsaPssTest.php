<?php

declare(strict_types=1);

namespace PhpCryptoBench\Tests\Jws;

use PhpCryptoBench\Exception\SignatureRejected;
use PhpCryptoBench\Exception\WeakKey;
use PhpCryptoBench\Jws\Algorithms;
use PhpCryptoBench\Jws\Base64Url;
use PhpCryptoBench\Jws\CompactJws;
use PhpCryptoBench\Jws\Jwk;
use PhpCryptoBench\Jws\Key;
use PhpCryptoBench\Jws\RsaPssKey;
use PhpCryptoBench\Tests\Support\SharedKeys;
use PHPUnit\Framework\TestCase;
use PHPUnit\Framework\Attributes\DataProvider;

/**
 * PS256/384/512 sign and verify through the key's RSASSA-PSS form: OpenSSL pads with PSS, MGF1 of
 * the same hash and a salt as long as the hash (RFC 7518 section 3.5), and nothing else verifies.
 */
final class RsaPssTest extends TestCase
{
    private static \OpenSSLAsymmetricKey $private;

    public static function setUpBeforeClass(): void
    {
        self::$private = SharedKeys::rsa(2048);
    }

    /** @return iterable<string, array{string, string, int}> */
    public static function algorithms(): iterable
    {
        yield 'PS256' => ['PS256', 'sha256', 32];
        yield 'PS384' => ['PS384', 'sha384', 48];
        yield 'PS512' => ['PS512', 'sha512', 64];
    }

    /** @dataProvider algorithms */
    #[DataProvider('algorithms')]
    public function testPssSignaturesAreRandomizedAndVerify(string $alg): void
    {
        $algorithm = Algorithms::named($alg);
        $signer = Key::forSigning($algorithm, self::$private);
        $first = CompactJws::sign($signer, 'payload');
        $second = CompactJws::sign($signer, 'payload');

        self::assertNotSame($first, $second, 'a random salt: two signatures of one input differ');
        $verifier = Key::forVerification($algorithm, Jwk::import(Jwk::publicOf(self::$private)));
        self::assertSame('payload', CompactJws::verify($first, $verifier)->payload);
        self::assertSame('payload', CompactJws::verify($second, $verifier)->payload);
        self::assertFalse(openssl_error_string(), 'a valid signature leaves no OpenSSL error queued (verify drains only after a refusal)');
    }

    public function testASignatureWithAnotherHashIsRefused(): void
    {
        $details = openssl_pkey_get_details(self::$private)['rsa'];
        $input = Base64Url::encode('{"alg":"PS256"}') . '.' . Base64Url::encode('payload');
        $sha384 = '';
        // PS384's padding (SHA-384, MGF1-SHA-384) with PS256's salt length, under a PS256 header.
        self::assertTrue(openssl_sign($input, $sha384, RsaPssKey::of($details, 'PS384', 'sha384', 32), 'sha384'));
        $verifier = Key::forVerification(Algorithms::named('PS256'), Jwk::import(Jwk::publicOf(self::$private)));
        $this->assertRefused("$input." . Base64Url::encode($sha384), $verifier, 'a PSS signature with SHA-384');
    }

    /** @dataProvider algorithms */
    #[DataProvider('algorithms')]
    public function testASignatureWithAnotherSaltLengthIsRefused(string $alg, string $hash, int $hashBytes): void
    {
        $details = openssl_pkey_get_details(self::$private)['rsa'];
        $header = Base64Url::encode('{"alg":"' . $alg . '"}') . '.' . Base64Url::encode('payload');
        $verifier = Key::forVerification(Algorithms::named($alg), Jwk::import(Jwk::publicOf(self::$private)));
        foreach ([0, $hashBytes - 1, $hashBytes + 1, 2 * $hashBytes] as $salt) {
            $signature = '';
            self::assertTrue(openssl_sign($header, $signature, RsaPssKey::of($details, $alg, $hash, $salt), $hash));
            $this->assertRefused("$header." . Base64Url::encode($signature), $verifier, "a salt of $salt bytes");
        }
    }

    public function testAnRsassaPkcs1SignatureIsRefused(): void
    {
        $input = Base64Url::encode('{"alg":"PS256"}') . '.' . Base64Url::encode('payload');
        $pkcs1 = '';
        self::assertTrue(openssl_sign($input, $pkcs1, self::$private, 'sha256'));
        $verifier = Key::forVerification(Algorithms::named('PS256'), Jwk::import(Jwk::publicOf(self::$private)));
        $this->assertRefused("$input." . Base64Url::encode($pkcs1), $verifier, 'an RSASSA-PKCS1-v1_5 signature of the same input');
    }

    public function testAPrivateKeyWithoutItsCrtMembersCannotSignWithPss(): void
    {
        $rsa = openssl_pkey_get_details(self::$private)['rsa'];
        $nAndD = openssl_pkey_new(['rsa' => ['n' => $rsa['n'], 'e' => $rsa['e'], 'd' => $rsa['d']]]);

        $this->expectException(WeakKey::class);
        $this->expectExceptionMessage('PS256: expected an RSA private key with its CRT members (p, q, dp, dq, qi), which its RSASSA-PSS form needs, got one without p, q, dp, dq, qi');
        Key::forSigning(Algorithms::named('PS256'), $nAndD);
    }

    private function assertRefused(string $token, Key $verifier, string $what): void
    {
        try {
            CompactJws::verify($token, $verifier);
            self::fail("expected $what to be refused, it verified");
        } catch (SignatureRejected $e) {
            self::assertSame($verifier->algorithm->name() . ': expected a signature that verifies with the key, got one that does not', $e->getMessage(), $what);
        }
        self::assertFalse(openssl_error_string(), 'no OpenSSL error left queued for the next call');
    }
}
