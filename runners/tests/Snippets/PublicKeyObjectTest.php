<?php

declare(strict_types=1);

namespace PhpCryptoBench\Tests\Snippets;

use InvalidArgumentException;
use OpenSSLAsymmetricKey;
use PhpCryptoBench\Jws\Der;
use PhpCryptoBench\Tests\Support\SharedKeys;
use PHPUnit\Framework\Attributes\DataProvider;

/**
 * runners/snippets/public-key-object.php: a public key loaded once into a key object, an RSA key's
 * size read once; what verifies is exactly what openssl_verify() accepts, and nothing else.
 */
final class PublicKeyObjectTest extends SnippetTestCase
{
    private const DATA = 'header.payload of a token';

    public static function snippet(): string
    {
        return 'public-key-object.php';
    }

    /** @return iterable<string, array{array<string, int|string>, int|null}> key options => the size read once */
    public static function keys(): iterable
    {
        yield 'RSA-2048' => [['private_key_type' => OPENSSL_KEYTYPE_RSA, 'private_key_bits' => 2048], 256];
        yield 'RSA-3072' => [['private_key_type' => OPENSSL_KEYTYPE_RSA, 'private_key_bits' => 3072], 384];
        yield 'P-256' => [['private_key_type' => OPENSSL_KEYTYPE_EC, 'curve_name' => 'prime256v1'], null];
    }

    /**
     * @dataProvider keys
     * @param array<string, int|string> $options
     */
    #[DataProvider('keys')]
    public function testASignatureVerifiesAndAnythingChangedDoesNot(array $options, ?int $modulusBytes): void
    {
        [$private, $pem] = self::sharedKeyPair($options);
        $signature = '';
        self::assertTrue(openssl_sign(self::DATA, $signature, $private, 'sha256'));

        $verifier = public_key_verifier($pem);
        self::assertInstanceOf(OpenSSLAsymmetricKey::class, $verifier['publicKey']);
        self::assertSame($modulusBytes, $verifier['modulusBytes']);
        self::assertTrue(public_key_verify($verifier, self::DATA, $signature));
        self::assertFalse(public_key_verify($verifier, self::DATA . '.', $signature), 'other data');
        self::assertFalse(public_key_verify($verifier, self::DATA, self::flipped($signature, 20)), 'a changed signature');
        self::assertFalse(public_key_verify($verifier, self::DATA, substr($signature, 0, -1)), 'a signature a byte short');
        self::assertFalse(public_key_verify($verifier, self::DATA, $signature . "\0"), 'a byte appended');
        self::assertFalse(public_key_verify($verifier, self::DATA, ''), 'no signature');
        $other = self::otherKey($options);
        openssl_sign(self::DATA, $signature, $other, 'sha256');
        self::assertFalse(public_key_verify($verifier, self::DATA, $signature), 'another key\'s signature');
    }

    public function testAnRsaSignatureOfAnotherLengthIsRefusedBeforeOpensslSeesIt(): void
    {
        [$private, $pem] = self::sharedKeyPair(['private_key_type' => OPENSSL_KEYTYPE_RSA, 'private_key_bits' => 2048]);
        $signature = '';
        openssl_sign(self::DATA, $signature, $private, 'sha256');
        $verifier = public_key_verifier($pem);
        // A leading zero byte: the same number, one byte longer. RFC 8017 section 8.2.2 refuses it.
        self::assertFalse(public_key_verify($verifier, self::DATA, "\0" . $signature));
        self::assertFalse(public_key_verify(['publicKey' => $verifier['publicKey'], 'modulusBytes' => 255], self::DATA, $signature), 'the size read once is what decides');
    }

    /** @return iterable<string, array{string, int}> a modulus => the length of its signatures in bytes */
    public static function moduli(): iterable
    {
        yield '2048 bits: 256 bytes' => ["\xc1" . str_repeat("\x5a", 254) . "\x01", 256];
        yield '2049 bits: 257 bytes' => ["\x01" . str_repeat("\x5a", 255) . "\x01", 257];
        yield '2055 bits: 257 bytes' => ["\x7f" . str_repeat("\x5a", 255) . "\x01", 257];
    }

    /** @dataProvider moduli */
    #[DataProvider('moduli')]
    public function testTheSignatureLengthIsTheModulusInWholeBytes(string $modulus, int $bytes): void
    {
        self::assertSame($bytes, public_key_verifier(self::rsaPublicPem($modulus))['modulusBytes']);
    }

    /** An RSA public key (rsaEncryption) as PEM, of a modulus made up for its size and e = 65537: no private key needed. */
    private static function rsaPublicPem(string $modulus): string
    {
        $rsaEncryption = Der::sequence(Der::oid("\x2a\x86\x48\x86\xf7\x0d\x01\x01\x01"), Der::nullValue());
        return Der::pem('PUBLIC KEY', Der::sequence($rsaEncryption, Der::bitString(Der::sequence(Der::unsignedInteger($modulus), Der::unsignedInteger("\x01\x00\x01")))));
    }

    /** @return iterable<string, array{callable(): string, string}> */
    public static function refusedKeys(): iterable
    {
        yield 'RSA, 2047 bits' => [static fn (): string => self::rsaPublicPem("\x7f" . str_repeat("\x5a", 254) . "\x01"), 'expected an RSA key of at least 2048 bits, got 2047'];
        yield 'RSA-1024' => [static fn (): string => self::keyPair(['private_key_type' => OPENSSL_KEYTYPE_RSA, 'private_key_bits' => 1024])[1], 'expected an RSA key of at least 2048 bits, got 1024'];
        yield 'P-384' => [static fn (): string => self::keyPair(['private_key_type' => OPENSSL_KEYTYPE_EC, 'curve_name' => 'secp384r1'])[1], 'expected an RSA or a P-256 public key, got another kind of key'];
        yield 'not PEM' => [static fn (): string => 'not a key', 'expected a PEM public key, OpenSSL refused it'];
        yield 'a PEM cut short' => [static fn (): string => substr(self::keyPair(['private_key_type' => OPENSSL_KEYTYPE_EC, 'curve_name' => 'prime256v1'])[1], 0, 80), 'expected a PEM public key, OpenSSL refused it'];
    }

    /**
     * @dataProvider refusedKeys
     * @param callable(): string $pem
     */
    #[DataProvider('refusedKeys')]
    public function testKeysOtherThanRsa2048PlusOrP256AreRefused(callable $pem, string $reason): void
    {
        $this->expectException(InvalidArgumentException::class);
        $this->expectExceptionMessage($reason);
        public_key_verifier($pem());
    }

    /**
     * An RSA key of the size $options asks for is the suite's shared one (a new RSA-3072 key costs a
     * third of a CPU-second); a key of another kind is new.
     *
     * @param array<string, int|string> $options
     * @return array{OpenSSLAsymmetricKey, string} the private key and its public key as PEM
     */
    private static function sharedKeyPair(array $options): array
    {
        if (!self::isRsa($options)) {
            return self::keyPair($options);
        }
        $private = SharedKeys::rsa((int) $options['private_key_bits']);
        return [$private, (string) openssl_pkey_get_details($private)['key']];
    }

    /**
     * A key of the same kind and size as sharedKeyPair()'s, and not that key.
     *
     * @param array<string, int|string> $options
     */
    private static function otherKey(array $options): OpenSSLAsymmetricKey
    {
        return self::isRsa($options) ? SharedKeys::otherRsa((int) $options['private_key_bits']) : self::keyPair($options)[0];
    }

    /** @param array<string, int|string> $options */
    private static function isRsa(array $options): bool
    {
        return ($options['private_key_type'] ?? null) === OPENSSL_KEYTYPE_RSA;
    }

    /**
     * @param array<string, int|string> $options
     * @return array{OpenSSLAsymmetricKey, string} the private key and its public key as PEM
     */
    private static function keyPair(array $options): array
    {
        $private = openssl_pkey_new($options);
        self::assertInstanceOf(OpenSSLAsymmetricKey::class, $private);
        return [$private, (string) openssl_pkey_get_details($private)['key']];
    }
}
