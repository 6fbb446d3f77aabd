<?php

declare(strict_types=1);

namespace PhpCryptoBench\Tests\Snippets;

use InvalidArgumentException;
use OpenSSLAsymmetricKey;
use PhpCryptoBench\Jws\RsaPssKey;
use PhpCryptoBench\Tests\Support\GenpkeyRsaPssKey;
use PhpCryptoBench\Tests\Support\MustRun;
use PhpCryptoBench\Tests\Support\SharedKeys;
use PHPUnit\Framework\Attributes\DataProvider;

/**
 * runners/snippets/ps256-rsassa-pss-key.php: PS256 checked by OpenSSL with an id-RSASSA-PSS key
 * fixing SHA-256, MGF1-SHA-256 and a 32-byte salt. A key made by `openssl genpkey` and one made by
 * this project's RsaPssKey both verify PS256; every other signature of the same data and the same
 * modulus (other salt lengths, PKCS#1 v1.5, another hash) is refused, and so is any other key.
 */
final class Ps256RsassaPssKeyTest extends SnippetTestCase
{
    private const DATA = 'eyJhbGciOiJQUzI1NiJ9.eyJzdWIiOiI0MiJ9';

    /** @var array<string, string> the RSA key's components (openssl_pkey_get_details()['rsa']) */
    private static array $rsa;
    private static OpenSSLAsymmetricKey $plainRsa;

    public static function snippet(): string
    {
        return 'ps256-rsassa-pss-key.php';
    }

    public static function setUpBeforeClass(): void
    {
        parent::setUpBeforeClass();
        $private = SharedKeys::rsa(2048);
        self::$plainRsa = $private;
        self::$rsa = openssl_pkey_get_details($private)['rsa'];
    }

    public function testAKeyMadeByOpensslGenpkeyVerifiesPs256AndRefusesAnotherSaltLength(): void
    {
        $directory = sys_get_temp_dir() . '/pcb-ps256-' . bin2hex(random_bytes(4));
        mkdir($directory);
        try {
            file_put_contents($directory . '/private.pem', GenpkeyRsaPssKey::privatePem());
            file_put_contents($directory . '/public.pem', GenpkeyRsaPssKey::publicPem());
            file_put_contents($directory . '/data', self::DATA);
            // The salt may be longer than the key's 32 bytes when signing: a 64-byte one.
            MustRun::command(['openssl', 'dgst', '-sha256', '-sign', $directory . '/private.pem', '-sigopt', 'rsa_pss_saltlen:64', '-out', $directory . '/salt64.sig', $directory . '/data']);
            $private = openssl_pkey_get_private((string) file_get_contents($directory . '/private.pem'));
            [$pssPublicKey, $bytes] = ps256_public_key((string) file_get_contents($directory . '/public.pem'));
            $salt64 = (string) file_get_contents($directory . '/salt64.sig');
        } finally {
            array_map('unlink', glob($directory . '/*') ?: []);
            rmdir($directory);
        }
        self::assertInstanceOf(OpenSSLAsymmetricKey::class, $private);
        $signature = '';
        self::assertTrue(openssl_sign(self::DATA, $signature, $private, 'sha256'));

        self::assertTrue(ps256_verify($pssPublicKey, $bytes, self::DATA, $signature));
        self::assertFalse(ps256_verify($pssPublicKey, $bytes, self::DATA . '.', $signature));
        self::assertFalse(ps256_verify($pssPublicKey, $bytes, self::DATA, self::flipped($signature, 100)));
        self::assertSame(256, strlen($salt64));
        self::assertFalse(ps256_verify($pssPublicKey, $bytes, self::DATA, $salt64), 'a 64-byte salt');
    }

    public function testAKeyMadeFromAnRsaKeyVerifiesPs256(): void
    {
        [$pssPublicKey, $bytes] = ps256_public_key(self::pssPublicPem('sha256', 32));
        $signature = self::signature('sha256', 32);

        self::assertTrue(ps256_verify($pssPublicKey, $bytes, self::DATA, $signature));
        self::assertTrue(ps256_verify($pssPublicKey, $bytes, self::DATA, self::signature('sha256', 32)), 'a random salt: each signature differs and verifies');
        self::assertFalse(ps256_verify($pssPublicKey, $bytes, self::DATA . '.', $signature));
        self::assertSame(256, $bytes, 'a 2048-bit key signs in 256 bytes');
        self::assertFalse(ps256_verify($pssPublicKey, $bytes, self::DATA, substr($signature, 1)));
        $leadingZero = self::signatureWithLeadingZero();
        self::assertTrue(ps256_verify($pssPublicKey, $bytes, self::DATA, $leadingZero));
        self::assertSame(1, openssl_verify(self::DATA, substr($leadingZero, 1), $pssPublicKey, 'sha256'), 'OpenSSL takes it without its zero');
        self::assertFalse(ps256_verify($pssPublicKey, $bytes, self::DATA, substr($leadingZero, 1)), 'the snippet does not: a second encoding');
        self::assertFalse(ps256_verify($pssPublicKey, $bytes, self::DATA, ''));
    }

    /** @return iterable<string, array{callable(): string}> signatures of DATA by the same RSA key, not PS256 */
    public static function otherSignatures(): iterable
    {
        yield 'PSS, 20-byte salt' => [static fn (): string => self::signature('sha256', 20)];
        yield 'PSS, 64-byte salt' => [static fn (): string => self::signature('sha256', 64)];
        yield 'PSS, no salt' => [static fn (): string => self::signature('sha256', 0)];
        yield 'PSS with SHA-384 (PS384)' => [static fn (): string => self::signature('sha384', 48)];
        yield 'PSS with SHA-384, 32-byte salt' => [static fn (): string => self::signature('sha384', 32)];
        yield 'PKCS#1 v1.5 with SHA-256 (RS256)' => [static function (): string {
            $signature = '';
            self::assertTrue(openssl_sign(self::DATA, $signature, self::$plainRsa, 'sha256'));
            return $signature;
        }];
    }

    /**
     * @dataProvider otherSignatures
     * @param callable(): string $sign
     */
    #[DataProvider('otherSignatures')]
    public function testEverySignatureButPs256IsRefused(callable $sign): void
    {
        [$pssPublicKey, $bytes] = ps256_public_key(self::pssPublicPem('sha256', 32));
        self::assertFalse(ps256_verify($pssPublicKey, $bytes, self::DATA, $sign()));
    }

    public function testAKeyWhoseHashParametersAreAbsentRatherThanNullIsAccepted(): void
    {
        // RFC 4055 section 2.1: both encodings of SHA-256's AlgorithmIdentifier are legal.
        $der = self::der(self::pssPublicPem('sha256', 32));
        $withNull = '300d06096086480165030402010500';
        $absent = '300b0609608648016503040201';
        $algorithm = bin2hex(substr($der, 4, 67));
        $rewritten = str_replace(['3041', '3034', 'a00f', 'a11c301a', $withNull], ['303d', '3030', 'a00d', 'a11a3018', $absent], $algorithm);
        self::assertSame(63 * 2, strlen($rewritten), "two bytes fewer in each of the two hash identifiers");
        $body = hex2bin($rewritten) . substr($der, 4 + 67);
        $pem = self::pem("\x30\x82" . pack('n', strlen($body)) . $body);

        [$pssPublicKey, $bytes] = ps256_public_key($pem);
        self::assertTrue(ps256_verify($pssPublicKey, $bytes, self::DATA, self::signature('sha256', 32)));
    }

    /** @return iterable<string, array{callable(): string, string}> */
    public static function refusedKeys(): iterable
    {
        $other = 'expected an RSASSA-PSS public key for SHA-256, MGF1 with SHA-256 and a 32-byte salt, got another key';
        yield 'a plain RSA key (openssl_verify() would check PKCS#1 v1.5)' => [static fn (): string => (string) openssl_pkey_get_details(self::$plainRsa)['key'], $other];
        yield 'RSASSA-PSS, 20-byte salt' => [static fn (): string => self::pssPublicPem('sha256', 20), $other];
        yield 'RSASSA-PSS, 64-byte salt' => [static fn (): string => self::pssPublicPem('sha256', 64), $other];
        yield 'RSASSA-PSS for SHA-384' => [static fn (): string => self::pssPublicPem('sha384', 32), $other];
        yield 'a P-256 key' => [static fn (): string => (string) openssl_pkey_get_details(openssl_pkey_new(['private_key_type' => OPENSSL_KEYTYPE_EC, 'curve_name' => 'prime256v1']))['key'], $other];
        yield 'RSASSA-PSS, 1024 bits' => [static function (): string {
            $small = openssl_pkey_get_details(openssl_pkey_new(['private_key_type' => OPENSSL_KEYTYPE_RSA, 'private_key_bits' => 1024]))['rsa'];
            return (string) openssl_pkey_get_details(RsaPssKey::of(['n' => $small['n'], 'e' => $small['e']], 'PS256', 'sha256', 32))['key'];
        }, 'expected a key of at least 2048 bits, got 1024'];
        yield 'not PEM' => [static fn (): string => 'not a key', 'expected a PEM public key, OpenSSL refused it'];
        // Moduli made up for their size (no private key needed): the bit count is read from the key.
        yield 'RSASSA-PSS, 2047 bits' => [static fn (): string => self::pssPublicPemOfModulus("\x7f" . substr(self::$rsa['n'], 1)), 'expected a key of at least 2048 bits, got 2047'];
        // So small that its DER length fits one byte (30 77 ...): the AlgorithmIdentifier is still found, and the size refused.
        yield 'RSASSA-PSS, 319 bits' => [static fn (): string => self::pssPublicPemOfModulus("\x41" . str_repeat("\x5a", 38) . "\x01"), 'expected a key of at least 2048 bits, got 319'];
    }

    /**
     * @dataProvider refusedKeys
     * @param callable(): string $pem
     */
    #[DataProvider('refusedKeys')]
    public function testAnyOtherKeyIsRefused(callable $pem, string $reason): void
    {
        $this->expectException(InvalidArgumentException::class);
        $this->expectExceptionMessage($reason);
        ps256_public_key($pem());
    }

    /** @return iterable<string, array{string, int}> a modulus => the length of its signatures in bytes */
    public static function moduli(): iterable
    {
        yield '2048 bits: 256 bytes' => ["\xc1" . str_repeat("\x5a", 254) . "\x01", 256];
        yield '2049 bits: 257 bytes' => ["\x01" . str_repeat("\x5a", 255) . "\x01", 257];
        yield '2055 bits: 257 bytes' => ["\x7f" . str_repeat("\x5a", 255) . "\x01", 257];
        yield '3072 bits: 384 bytes' => ["\xc1" . str_repeat("\x5a", 382) . "\x01", 384];
    }

    /** @dataProvider moduli */
    #[DataProvider('moduli')]
    public function testTheSignatureLengthIsTheModulusInWholeBytes(string $modulus, int $bytes): void
    {
        [, $signatureBytes] = ps256_public_key(self::pssPublicPemOfModulus($modulus));
        self::assertSame($bytes, $signatureBytes);
    }

    /** An id-RSASSA-PSS PEM (PS256's parameters) of this modulus and e = 65537. */
    private static function pssPublicPemOfModulus(string $modulus): string
    {
        return (string) openssl_pkey_get_details(RsaPssKey::of(['n' => $modulus, 'e' => "\x01\x00\x01"], 'PS256', 'sha256', 32))['key'];
    }

    /** The same RSA key's public half as an id-RSASSA-PSS PEM with these parameters. */
    private static function pssPublicPem(string $hash, int $saltBytes): string
    {
        $public = RsaPssKey::of(['n' => self::$rsa['n'], 'e' => self::$rsa['e']], 'PS256', $hash, $saltBytes);
        return (string) openssl_pkey_get_details($public)['key'];
    }

    /** A PSS signature of DATA by the same RSA key: MGF1 with $hash, a salt of $saltBytes. */
    private static function signature(string $hash, int $saltBytes): string
    {
        $signature = '';
        self::assertTrue(openssl_sign(self::DATA, $signature, RsaPssKey::of(self::$rsa, 'PS256', $hash, $saltBytes), $hash));
        return $signature;
    }

    /** A PS256 signature whose first byte is 0 (one in 256 is: signed until one is). */
    private static function signatureWithLeadingZero(): string
    {
        for ($attempt = 0; $attempt < 5000; $attempt++) {
            $signature = self::signature('sha256', 32);
            if ($signature[0] === "\0") {
                return $signature;
            }
        }
        self::fail('no signature of 5000 began with a zero byte');
    }

    private static function der(string $pem): string
    {
        return (string) base64_decode((string) preg_replace('/-----[A-Z ]+-----|\s+/', '', $pem), true);
    }

    private static function pem(string $der): string
    {
        return "-----BEGIN PUBLIC KEY-----\n" . chunk_split(base64_encode($der), 64, "\n") . "-----END PUBLIC KEY-----\n";
    }
}
