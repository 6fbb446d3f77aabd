<?php

declare(strict_types=1);

namespace PhpCryptoBench\Tests\Snippets;

use InvalidArgumentException;
use RuntimeException;
use SodiumException;
use PHPUnit\Framework\Attributes\DataProvider;

/**
 * runners/snippets/x25519-shared-key.php: both sides derive the same key, which is HKDF of the raw
 * X25519 secret (never the secret itself), bound to both public keys and the context; a public key
 * of small order (an all-zero secret) is refused.
 */
final class X25519SharedKeyTest extends SnippetTestCase
{
    private const CONTEXT = 'phpcrypto-bench snippet test v1';

    public static function snippet(): string
    {
        return 'x25519-shared-key.php';
    }

    public function testBothSidesDeriveTheSameKeyWhichIsNotTheRawSecret(): void
    {
        $alice = x25519_key_pair();
        $bob = x25519_key_pair();

        $aliceKey = x25519_shared_key($alice['secretKey'], $bob['publicKey'], self::CONTEXT);
        $bobKey = x25519_shared_key($bob['secretKey'], $alice['publicKey'], self::CONTEXT);

        self::assertSame($aliceKey, $bobKey);
        self::assertSame(32, strlen($aliceKey));
        $raw = sodium_crypto_scalarmult($alice['secretKey'], $bob['publicKey']);
        self::assertNotSame($raw, $aliceKey, 'the raw X25519 secret is never the key');
        $publicKeys = [$alice['publicKey'], $bob['publicKey']];
        usort($publicKeys, 'strcmp');
        self::assertSame(hash_hkdf('sha256', $raw, 32, implode('', $publicKeys) . self::CONTEXT), $aliceKey, 'HKDF-SHA-256 of the raw secret, both public keys and the context');
        self::assertSame(sodium_crypto_scalarmult_base($alice['secretKey']), $alice['publicKey']);
    }

    public function testAnotherContextOrAnotherPeerGivesAnotherKey(): void
    {
        $alice = x25519_key_pair();
        $bob = x25519_key_pair();
        $carol = x25519_key_pair();

        $key = x25519_shared_key($alice['secretKey'], $bob['publicKey'], self::CONTEXT);
        self::assertNotSame($key, x25519_shared_key($alice['secretKey'], $bob['publicKey'], self::CONTEXT . ' other purpose'));
        self::assertNotSame($key, x25519_shared_key($alice['secretKey'], $carol['publicKey'], self::CONTEXT));
        self::assertNotSame($key, x25519_shared_key($carol['secretKey'], $bob['publicKey'], self::CONTEXT));
    }

    /** @return iterable<string, array{string}> public keys of small order on Curve25519 (and their non-canonical forms) */
    public static function smallOrderPoints(): iterable
    {
        yield 'zero' => [str_repeat('00', 32)];
        yield 'one' => ['01' . str_repeat('00', 31)];
        yield 'order 8' => ['e0eb7a7c3b41b8ae1656e3faf19fc46ada098deb9c32b1fd866205165f49b800'];
        yield 'order 8, the other' => ['5f9c95bca3508c24b1d0b1559c83ef5b04445cc4581c8e86d8224eddd09f1157'];
        yield 'p - 1' => ['ec' . str_repeat('ff', 30) . '7f'];
        yield 'p' => ['ed' . str_repeat('ff', 30) . '7f'];
        yield 'p + 1' => ['ee' . str_repeat('ff', 30) . '7f'];
    }

    /** @dataProvider smallOrderPoints */
    #[DataProvider('smallOrderPoints')]
    public function testAPublicKeyGivingAnAllZeroSecretIsRefused(string $publicKeyHex): void
    {
        try {
            x25519_shared_key(x25519_key_pair()['secretKey'], (string) hex2bin($publicKeyHex), self::CONTEXT);
            self::fail('expected the public key to be refused');
        } catch (RuntimeException $e) {
            self::assertSame('refused: the public key gives an all-zero shared secret', $e->getMessage());
            self::assertSame(0, $e->getCode());
            self::assertInstanceOf(SodiumException::class, $e->getPrevious(), "libsodium's refusal, kept");
        }
    }

    public function testThePublicKeysAreOrderedByTheirBytesNotAsText(): void
    {
        // Two public keys whose order changes when letters are compared without case (strcasecmp()):
        // both sides must put the same key first, by its bytes.
        for ($attempt = 0; $attempt < 100000; $attempt++) {
            [$alice, $bob] = [x25519_key_pair(), x25519_key_pair()];
            if ((strcmp($alice['publicKey'], $bob['publicKey']) < 0) !== (strcasecmp($alice['publicKey'], $bob['publicKey']) < 0)) {
                break;
            }
        }
        self::assertNotSame(strcmp($alice['publicKey'], $bob['publicKey']) < 0, strcasecmp($alice['publicKey'], $bob['publicKey']) < 0, 'no such pair of 100000');
        [$first, $second] = strcmp($alice['publicKey'], $bob['publicKey']) < 0 ? [$alice['publicKey'], $bob['publicKey']] : [$bob['publicKey'], $alice['publicKey']];
        $raw = sodium_crypto_scalarmult($alice['secretKey'], $bob['publicKey']);
        self::assertSame(hash_hkdf('sha256', $raw, 32, $first . $second . self::CONTEXT), x25519_shared_key($alice['secretKey'], $bob['publicKey'], self::CONTEXT));
        self::assertSame(hash_hkdf('sha256', $raw, 32, $first . $second . self::CONTEXT), x25519_shared_key($bob['secretKey'], $alice['publicKey'], self::CONTEXT));
    }

    /** @return iterable<string, array{int, int, string, string}> */
    public static function wrongInputs(): iterable
    {
        yield 'a short secret key' => [31, 32, self::CONTEXT, 'expected a 32-byte secret key and a 32-byte public key, got 31 and 32 bytes'];
        yield 'a long secret key' => [33, 32, self::CONTEXT, 'expected a 32-byte secret key and a 32-byte public key, got 33 and 32 bytes'];
        yield 'a short public key' => [32, 31, self::CONTEXT, 'expected a 32-byte secret key and a 32-byte public key, got 32 and 31 bytes'];
        yield 'a long public key' => [32, 33, self::CONTEXT, 'expected a 32-byte secret key and a 32-byte public key, got 32 and 33 bytes'];
        yield 'a hex public key' => [32, 64, self::CONTEXT, 'expected a 32-byte secret key and a 32-byte public key, got 32 and 64 bytes'];
        yield 'no context' => [32, 32, '', 'expected a context naming the protocol and purpose, got an empty one'];
    }

    /** @dataProvider wrongInputs */
    #[DataProvider('wrongInputs')]
    public function testKeysOfAnotherLengthAndAnEmptyContextAreRefused(int $secretBytes, int $publicBytes, string $context, string $reason): void
    {
        $this->expectException(InvalidArgumentException::class);
        $this->expectExceptionMessage($reason);
        x25519_shared_key(random_bytes($secretBytes), str_repeat("\x09", $publicBytes), $context);
    }
}
