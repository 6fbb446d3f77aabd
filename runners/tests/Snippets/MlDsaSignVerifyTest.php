<?php

declare(strict_types=1);

namespace PhpCryptoBench\Tests\Snippets;

use InvalidArgumentException;
use OpenSSLAsymmetricKey;
use PHPUnit\Framework\Attributes\DataProvider;
use RuntimeException;

/**
 * runners/snippets/ml-dsa-sign-verify.php: ML-DSA keys from `openssl genpkey`, signed and verified
 * through openssl_sign()/openssl_verify() with algorithm 0. Needs OpenSSL 3.5 or newer (the debian13
 * stack); where OpenSSL is older the signing tests are skipped with the reason, and the snippet's own
 * refusal is checked instead.
 */
final class MlDsaSignVerifyTest extends SnippetTestCase
{
    /** @var array<string, string> parameter set => its private key PEM */
    private static array $private = [];

    public static function snippet(): string
    {
        return 'ml-dsa-sign-verify.php';
    }

    private static function hasMlDsa(): bool
    {
        return OPENSSL_VERSION_NUMBER >= 0x30500000;
    }

    /**
     * Whether this PHP's OpenSSL has ML-DSA. Where it has not (the host's 3.0; `make test` runs these tests again
     * in the debian13 stack, whose 3.5 has it), the test checks the refusal the snippet gives instead of being
     * skipped: the suite fails on a skipped test.
     */
    private function requireMlDsa(): bool
    {
        if (self::hasMlDsa()) {
            return true;
        }
        $this->assertRefusedForOldOpenssl();
        return false;
    }

    private function assertRefusedForOldOpenssl(): void
    {
        try {
            ml_dsa_public_key("-----BEGIN PUBLIC KEY-----\n-----END PUBLIC KEY-----\n");
            self::fail('an OpenSSL without ML-DSA must be refused');
        } catch (RuntimeException $e) {
            self::assertSame('ML-DSA needs OpenSSL 3.5 or newer; this PHP uses ' . OPENSSL_VERSION_TEXT, $e->getMessage());
        }
    }

    private static function privatePem(string $set): string
    {
        if (!isset(self::$private[$set])) {
            $process = proc_open(['openssl', 'genpkey', '-algorithm', $set], [1 => ['pipe', 'w'], 2 => ['pipe', 'w']], $pipes);
            self::assertIsResource($process);
            $pem = (string) stream_get_contents($pipes[1]);
            $stderr = (string) stream_get_contents($pipes[2]);
            fclose($pipes[1]);
            fclose($pipes[2]);
            self::assertSame(0, proc_close($process), $stderr);
            self::$private[$set] = $pem;
        }
        return self::$private[$set];
    }

    private static function privateKey(string $set): OpenSSLAsymmetricKey
    {
        $key = openssl_pkey_get_private(self::privatePem($set));
        self::assertInstanceOf(OpenSSLAsymmetricKey::class, $key);
        return $key;
    }

    private static function publicPem(string $set): string
    {
        return (string) openssl_pkey_get_details(self::privateKey($set))['key'];
    }

    public function testWhereOpensslIsOlderThan35TheSnippetRefusesWithTheReason(): void
    {
        if (self::hasMlDsa()) {
            // OpenSSL 3.5 has ML-DSA: the same entry point takes a real key there.
            self::assertNotEmpty(ml_dsa_public_key(self::publicPem('ML-DSA-65')));
            return;
        }
        $this->assertRefusedForOldOpenssl();
    }

    /** @return iterable<string, array{string, int}> parameter set => its signature's length */
    public static function parameterSets(): iterable
    {
        yield 'ML-DSA-44' => ['ML-DSA-44', 2420];
        yield 'ML-DSA-65' => ['ML-DSA-65', 3309];
        yield 'ML-DSA-87' => ['ML-DSA-87', 4627];
    }

    /** @dataProvider parameterSets */
    #[DataProvider('parameterSets')]
    public function testASignatureVerifiesAndAnyChangeIsRefused(string $set, int $signatureBytes): void
    {
        if (!$this->requireMlDsa()) {
            return;
        }
        $signature = ml_dsa_sign('attack at dawn', self::privateKey($set));
        $verifier = ml_dsa_public_key(self::publicPem($set));
        self::assertSame([$set, $signatureBytes], [$verifier['parameterSet'], $verifier['signatureBytes']]);
        self::assertSame($signatureBytes, strlen($signature));
        self::assertTrue(ml_dsa_verify($verifier, 'attack at dawn', $signature));
        self::assertFalse(ml_dsa_verify($verifier, 'attack at dusk', $signature));
        self::assertFalse(ml_dsa_verify($verifier, 'attack at dawn', self::flipped($signature, 0)));
        self::assertFalse(ml_dsa_verify($verifier, 'attack at dawn', self::flipped($signature, $signatureBytes - 1)));
        self::assertFalse(ml_dsa_verify($verifier, 'attack at dawn', substr($signature, 0, -1)));
        self::assertFalse(ml_dsa_verify($verifier, 'attack at dawn', $signature . "\0"));
        self::assertFalse(ml_dsa_verify($verifier, 'attack at dawn', ''));
    }

    public function testASignatureOfAnotherKeyIsRefused(): void
    {
        if (!$this->requireMlDsa()) {
            return;
        }
        $signature = ml_dsa_sign('data', self::privateKey('ML-DSA-65'));
        $other = openssl_pkey_get_private(self::privatePem('ML-DSA-44'));
        self::assertInstanceOf(OpenSSLAsymmetricKey::class, $other);
        $process = proc_open(['openssl', 'genpkey', '-algorithm', 'ML-DSA-65'], [1 => ['pipe', 'w']], $pipes);
        self::assertIsResource($process);
        $pem = (string) stream_get_contents($pipes[1]);
        fclose($pipes[1]);
        proc_close($process);
        $verifier = ml_dsa_public_key((string) openssl_pkey_get_details(openssl_pkey_get_private($pem))['key']);
        self::assertFalse(ml_dsa_verify($verifier, 'data', $signature));
    }

    public function testSigningIsRandomisedAndEachSignatureVerifies(): void
    {
        if (!$this->requireMlDsa()) {
            return;
        }
        $key = self::privateKey('ML-DSA-65');
        $first = ml_dsa_sign('data', $key);
        $second = ml_dsa_sign('data', $key);
        self::assertNotSame($first, $second, "OpenSSL's default is hedged (randomised) signing");
        $verifier = ml_dsa_public_key(self::publicPem('ML-DSA-65'));
        self::assertTrue(ml_dsa_verify($verifier, 'data', $first));
        self::assertTrue(ml_dsa_verify($verifier, 'data', $second));
    }

    public function testADigestNamedForMlDsaFailsAsTheCommentSays(): void
    {
        if (!$this->requireMlDsa()) {
            return;
        }
        self::assertFalse(@openssl_sign('data', $signature, self::privateKey('ML-DSA-65'), 'sha256'));
    }

    /** @return iterable<string, array{callable(): string}> a public key that is not ML-DSA */
    public static function otherKeys(): iterable
    {
        $config = REPOSITORY . '/runners/openssl-minimal.cnf';
        yield 'P-256' => [static fn (): string => (string) openssl_pkey_get_details(openssl_pkey_new(['private_key_type' => OPENSSL_KEYTYPE_EC, 'curve_name' => 'prime256v1', 'config' => $config]))['key']];
        yield 'RSA-2048' => [static fn (): string => (string) openssl_pkey_get_details(openssl_pkey_new(['private_key_type' => OPENSSL_KEYTYPE_RSA, 'private_key_bits' => 2048, 'config' => $config]))['key']];
    }

    /**
     * @dataProvider otherKeys
     * @param callable(): string $pem
     */
    #[DataProvider('otherKeys')]
    public function testAKeyOfAnotherKindIsRefusedWhereItIsLoaded(callable $pem): void
    {
        if (!$this->requireMlDsa()) {
            return;
        }
        $this->expectException(InvalidArgumentException::class);
        $this->expectExceptionMessage('expected an ML-DSA-44, ML-DSA-65 or ML-DSA-87 key, got another kind of key');
        ml_dsa_public_key($pem());
    }

    public function testAnotherKindOfPrivateKeyIsRefusedForSigning(): void
    {
        if (!$this->requireMlDsa()) {
            return;
        }
        $key = openssl_pkey_new(['private_key_type' => OPENSSL_KEYTYPE_EC, 'curve_name' => 'prime256v1', 'config' => REPOSITORY . '/runners/openssl-minimal.cnf']);
        self::assertInstanceOf(OpenSSLAsymmetricKey::class, $key);
        $this->expectException(InvalidArgumentException::class);
        $this->expectExceptionMessage('expected an ML-DSA-44, ML-DSA-65 or ML-DSA-87 key, got another kind of key');
        ml_dsa_sign('data', $key);
    }

    public function testNoPemIsRefused(): void
    {
        if (!$this->requireMlDsa()) {
            return;
        }
        $this->expectException(InvalidArgumentException::class);
        $this->expectExceptionMessage('expected a PEM public key, OpenSSL refused it');
        ml_dsa_public_key('not a key');
    }
}
