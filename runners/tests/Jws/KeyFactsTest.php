<?php

declare(strict_types=1);

namespace PhpCryptoBench\Tests\Jws;

use PhpCryptoBench\Exception\SignatureRejected;
use PhpCryptoBench\Jws\Algorithms;
use PhpCryptoBench\Jws\Base64Url;
use PhpCryptoBench\Jws\CompactJws;
use PhpCryptoBench\Jws\Jwk;
use PhpCryptoBench\Jws\Key;
use PhpCryptoBench\Jws\KeyFacts;
use PhpCryptoBench\Tests\Support\CountingKeyDetails;
use PhpCryptoBench\Tests\Support\SharedKeys;
use PHPUnit\Framework\TestCase;
use PHPUnit\Framework\Attributes\DataProvider;

/** A Key reads what it needs about its key once, when it is made; signing and verifying ask nothing more. */
final class KeyFactsTest extends TestCase
{
    private const OPERATIONS = 25;

    /**
     * Keys are made when a test runs, not when PHPUnit lists the tests: RSA key generation would
     * otherwise be paid by every run of the suite, however filtered (make mutation runs it per mutant).
     *
     * @return iterable<string, array{string, \Closure(): mixed}>
     */
    public static function opensslKeys(): iterable
    {
        $rsa = static fn (): mixed => SharedKeys::rsa(2048);
        yield 'RS256' => ['RS256', $rsa];
        yield 'PS384' => ['PS384', $rsa];
        yield 'ES256' => ['ES256', static fn (): mixed => openssl_pkey_new(['private_key_type' => OPENSSL_KEYTYPE_EC, 'curve_name' => 'prime256v1'])];
        yield 'ES512' => ['ES512', static fn (): mixed => openssl_pkey_new(['private_key_type' => OPENSSL_KEYTYPE_EC, 'curve_name' => 'secp521r1'])];
    }

    /** @dataProvider opensslKeys */
    #[DataProvider('opensslKeys')]
    public function testSigningAndVerifyingNeverAskOpensslAboutTheKeyAgain(string $alg, \Closure $key): void
    {
        $private = $key();
        $details = new CountingKeyDetails();
        $algorithm = Algorithms::named($alg);
        $signer = Key::forSigning($algorithm, $private, $details);
        $verifier = Key::forVerification($algorithm, Jwk::import(Jwk::publicOf($private)), $details);
        $askedWhenMade = $details->questions;

        for ($i = 0; $i < self::OPERATIONS; $i++) {
            $token = CompactJws::sign($signer, '{"n":' . $i . '}');
            self::assertSame('{"n":' . $i . '}', CompactJws::verify($token, $verifier)->payload);
        }

        self::assertSame(2, $askedWhenMade, 'each Key asks once, when it is made');
        self::assertSame($askedWhenMade, $details->questions, sprintf('%d signatures and verifications asked OpenSSL about the key', self::OPERATIONS));
    }

    /** @return iterable<string, array{string, \Closure(): mixed, KeyFacts}> */
    public static function keysAndTheirFacts(): iterable
    {
        yield 'RS256, 3072-bit private' => ['RS256', static fn (): mixed => SharedKeys::rsa(3072), new KeyFacts('RSA', 3072, null, true)];
        yield 'ES384, P-384 private' => ['ES384', static fn (): mixed => openssl_pkey_new(['private_key_type' => OPENSSL_KEYTYPE_EC, 'curve_name' => 'secp384r1']), new KeyFacts('EC', 384, 'secp384r1', true)];
        yield 'EdDSA, secret key' => ['EdDSA', static fn (): string => sodium_crypto_sign_secretkey(sodium_crypto_sign_keypair()), new KeyFacts('OKP', 253, 'Ed25519', true)];
        yield 'HS512, 64-byte secret' => ['HS512', static fn (): string => str_repeat('k', 64), new KeyFacts('oct', 512, null, true)];
    }

    /** @dataProvider keysAndTheirFacts */
    #[DataProvider('keysAndTheirFacts')]
    public function testFactsAreReadWhenTheKeyIsMade(string $alg, \Closure $material, KeyFacts $expected): void
    {
        self::assertEquals($expected, Key::forSigning(Algorithms::named($alg), $material())->facts);
    }

    public function testAPublicKeyIsKnownToBePublic(): void
    {
        $private = openssl_pkey_new(['private_key_type' => OPENSSL_KEYTYPE_EC, 'curve_name' => 'prime256v1']);
        $facts = Key::forVerification(Algorithms::named('ES256'), Jwk::import(Jwk::publicOf($private)))->facts;
        self::assertEquals(new KeyFacts('EC', 256, 'prime256v1', false), $facts);
    }

    public function testAnRsaSignatureOneByteShortIsRefusedByTheLengthTheKeyKnows(): void
    {
        $private = SharedKeys::rsa(2048);
        $algorithm = Algorithms::named('RS256');
        [$header, $payload, $signature] = explode('.', CompactJws::sign(Key::forSigning($algorithm, $private), 'x'));
        $short = Base64Url::encode(substr(Base64Url::decode($signature), 1));
        $this->expectException(SignatureRejected::class);
        $this->expectExceptionMessage('RS256: expected a 256-byte signature, got 255 bytes');
        CompactJws::verify("$header.$payload.$short", Key::forVerification($algorithm, Jwk::import(Jwk::publicOf($private))));
    }

    /**
     * The seam is the only way: no sign or verify path calls openssl_pkey_get_details() itself,
     * so the count above cannot miss a question asked around it.
     */
    public function testOnlyTheSeamAndKeyImportAskOpensslForDetails(): void
    {
        $askers = [];
        foreach (glob(REPOSITORY . '/runners/src/Jws/*.php') ?: [] as $file) {
            if (preg_match('/openssl_pkey_get_details\(\s*[$A-Za-z]/', (string) file_get_contents($file)) === 1) {
                $askers[] = basename($file);
            }
        }
        sort($askers);
        // Jwk converts keys to and from JWKs, AttackChecks builds its test keys: neither signs nor verifies.
        self::assertSame(['AttackChecks.php', 'Jwk.php', 'OpensslKeyDetails.php'], $askers);
    }
}
