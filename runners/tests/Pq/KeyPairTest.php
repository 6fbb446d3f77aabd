<?php

declare(strict_types=1);

namespace PhpCryptoBench\Tests\Pq;

use PhpCryptoBench\Exception\KeyOperationFailed;
use PhpCryptoBench\Io\JsonFile;
use PhpCryptoBench\Pq\KeyPair;
use PhpCryptoBench\Pq\PqScheme;
use PhpCryptoBench\Tests\Support\SharedKeys;
use PHPUnit\Framework\TestCase;
use PHPUnit\Framework\Attributes\DataProvider;

/** The public key's bytes read from a SubjectPublicKeyInfo: pure DER, so it runs on any OpenSSL. */
final class KeyPairTest extends TestCase
{
    /** @return iterable<string, array{string, string}> */
    public static function wycheproofKeys(): iterable
    {
        foreach (['mldsa_44_verify_test.json' => 'ML-DSA-44', 'mldsa_65_verify_test.json' => 'ML-DSA-65', 'mldsa_87_verify_test.json' => 'ML-DSA-87'] as $file => $name) {
            yield $name => [$file, $name];
        }
    }

    /**
     * Wycheproof gives each group's key twice, raw and as a SubjectPublicKeyInfo: the BIT STRING of the
     * one is the other, FIPS 204's size.
     *
     * @dataProvider wycheproofKeys
     */
    #[DataProvider('wycheproofKeys')]
    public function testTheBitStringOfAnMlDsaSubjectPublicKeyInfoIsTheRawKey(string $file, string $name): void
    {
        $group = JsonFile::read(REPOSITORY . '/vectors/wycheproof/' . $file, 'vector file missing')['testGroups'][0];
        $scheme = PqScheme::named($name);
        $raw = KeyPair::subjectPublicKey($scheme, (string) hex2bin($group['publicKeyDer']));
        self::assertSame($group['publicKey'], bin2hex($raw));
        self::assertSame($scheme->expectedPublicKeyBytes(), strlen($raw));
    }

    public function testAnRsaKeysBitStringIsItsRsaPublicKey(): void
    {
        $private = SharedKeys::rsa(2048);
        $pem = '';
        self::assertTrue(openssl_pkey_export($private, $pem));
        $pair = KeyPair::fromPem(PqScheme::named('RSA-2048'), $pem);
        self::assertSame(270, strlen($pair->publicKeyBytes), 'SEQUENCE { 257-byte modulus, 65537 }');
        self::assertSame(294, strlen($pair->spki));
        $jwk = $pair->publicJwk();
        self::assertSame(['RSA', 'RS256', 'sig'], [$jwk['kty'], $jwk['alg'], $jwk['use']]);
    }

    public function testWhatIsNoSubjectPublicKeyInfoIsRefusedByName(): void
    {
        $this->expectException(KeyOperationFailed::class);
        $this->expectExceptionMessage('ML-DSA-65: expected reading its SubjectPublicKeyInfo to succeed, it failed: expected SubjectPublicKeyInfo (tag 0x30) at byte 0');
        KeyPair::subjectPublicKey(PqScheme::named('ML-DSA-65'), "\x04\x02ab");
    }

    public function testALengthPastTheEndIsRefused(): void
    {
        $this->expectException(KeyOperationFailed::class);
        $this->expectExceptionMessage('expected SubjectPublicKeyInfo within the data');
        KeyPair::subjectPublicKey(PqScheme::named('ML-DSA-44'), "\x30\x82\x05\x32\x30\x0b");
    }

    public function testAPemPhpCannotLoadIsRefusedWithOpensslsError(): void
    {
        $this->expectException(KeyOperationFailed::class);
        $this->expectExceptionMessageMatches('/^P-256: expected openssl_pkey_get_private\(\) of the key `openssl genpkey` made to succeed, it failed: /');
        KeyPair::fromPem(PqScheme::named('P-256'), "-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n");
    }
}
