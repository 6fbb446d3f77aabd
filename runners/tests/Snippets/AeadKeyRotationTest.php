<?php

declare(strict_types=1);

namespace PhpCryptoBench\Tests\Snippets;

use InvalidArgumentException;
use RuntimeException;
use PHPUnit\Framework\Attributes\DataProvider;

/**
 * runners/snippets/aead-key-rotation.php: version (1) ‖ key id (4) ‖ nonce (24) ‖ ciphertext ‖ tag (16),
 * the header authenticated; old messages open after a rotation, unknown versions and key ids refused.
 */
final class AeadKeyRotationTest extends SnippetTestCase
{
    private const HEADER = 5;
    private const NONCE = 24;
    private const TAG = 16;
    private const REFUSED = 'the message could not be authenticated';

    public static function snippet(): string
    {
        return 'aead-key-rotation.php';
    }

    /** @return array<int, string> */
    private static function ring(int ...$ids): array
    {
        $keys = [];
        foreach ($ids as $id) {
            $keys[$id] = sodium_crypto_aead_xchacha20poly1305_ietf_keygen();
        }
        return $keys;
    }

    /** @return iterable<string, array{string, string, int}> */
    public static function messages(): iterable
    {
        yield 'empty, no associated data, key id 0' => ['', '', 0];
        yield 'one byte, key id 1' => ['x', 'users.email:42', 1];
        yield 'binary, 4 KiB, the largest key id' => [random_bytes(4096), "\0\x01binary", 0xFFFFFFFF];
    }

    /** @dataProvider messages */
    #[DataProvider('messages')]
    public function testWhatIsSealedCarriesItsVersionAndKeyIdAndOpens(string $plaintext, string $associatedData, int $keyId): void
    {
        $keys = self::ring($keyId);
        $sealed = rotating_seal($plaintext, $associatedData, $keys, $keyId);

        self::assertSame(self::HEADER + self::NONCE + strlen($plaintext) + self::TAG, strlen($sealed));
        self::assertSame("\x01" . pack('N', $keyId), substr($sealed, 0, self::HEADER));
        self::assertSame($keyId, rotating_key_id($sealed));
        self::assertSame($plaintext, rotating_open($sealed, $associatedData, $keys));
    }

    public function testAfterARotationOldMessagesOpenWithTheOldKeyAndNewOnesUseTheNewKey(): void
    {
        $keys = self::ring(1);
        $old = rotating_seal('sealed in 2025', 'users.email:42', $keys, 1);

        $keys += self::ring(2); // the rotation: key 2 is added and becomes current
        $new = rotating_seal('sealed in 2026', 'users.email:42', $keys, 2);
        self::assertSame([1, 2], [rotating_key_id($old), rotating_key_id($new)]);
        self::assertSame('sealed in 2025', rotating_open($old, 'users.email:42', $keys));
        self::assertSame('sealed in 2026', rotating_open($new, 'users.email:42', $keys));

        $resealed = rotating_reseal($old, 'users.email:42', $keys, 2);
        self::assertSame(2, rotating_key_id($resealed));
        self::assertSame($new, rotating_reseal($new, 'users.email:42', $keys, 2), 'a message of the current key is kept as it is');

        unset($keys[1]); // the old key retired once nothing needs it
        self::assertSame('sealed in 2025', rotating_open($resealed, 'users.email:42', $keys));
        $this->expectException(RuntimeException::class);
        $this->expectExceptionMessage(self::REFUSED);
        rotating_open($old, 'users.email:42', $keys);
    }

    /** @return iterable<string, array{callable(string): string, string}> the tampering => the refusal */
    public static function tamperings(): iterable
    {
        yield 'version 2' => [static fn (string $s): string => "\x02" . substr($s, 1), self::REFUSED];
        yield 'version 0' => [static fn (string $s): string => "\x00" . substr($s, 1), self::REFUSED];
        yield 'key id of another key in the ring' => [static fn (string $s): string => "\x01" . pack('N', 2) . substr($s, self::HEADER), self::REFUSED];
        yield 'key id not in the ring' => [static fn (string $s): string => "\x01" . pack('N', 9) . substr($s, self::HEADER), self::REFUSED];
        yield 'nonce changed' => [static fn (string $s): string => self::flipped($s, self::HEADER), self::REFUSED];
        yield 'ciphertext changed' => [static fn (string $s): string => self::flipped($s, self::HEADER + self::NONCE + 2), self::REFUSED];
        yield 'tag changed' => [static fn (string $s): string => self::flipped($s, strlen($s) - 1), self::REFUSED];
        yield 'tag cut to 4 bytes' => [static fn (string $s): string => substr($s, 0, -12), self::REFUSED];
        yield 'a byte appended' => [static fn (string $s): string => $s . "\0", self::REFUSED];
        yield 'only the header' => [static fn (string $s): string => substr($s, 0, self::HEADER), self::REFUSED];
        yield 'the header cut short' => [static fn (string $s): string => substr($s, 0, 3), self::REFUSED];
        yield 'empty' => [static fn (string $s): string => '', self::REFUSED];
    }

    /**
     * @dataProvider tamperings
     * @param callable(string): string $tamper
     */
     #[DataProvider('tamperings')]
    public function testAChangedMessageIsRefused(callable $tamper, string $refusal): void
    {
        $keys = self::ring(1, 2);
        $sealed = $tamper(rotating_seal('attack at dawn', 'users.email:42', $keys, 1));
        try {
            rotating_open($sealed, 'users.email:42', $keys);
            self::fail('expected the changed message to be refused');
        } catch (RuntimeException $e) {
            // One error for every failure: same class, same message, nothing chained that tells them apart.
            self::assertSame([RuntimeException::class, $refusal, null, 0], [get_class($e), $e->getMessage(), $e->getPrevious(), $e->getCode()]);
        }
    }

    /**
     * Resealing opens first: a changed message is refused, never handed back (as it is, under the current
     * key) nor sealed anew (which would authenticate the change).
     *
     * @dataProvider tamperings
     * @param callable(string): string $tamper
     */
     #[DataProvider('tamperings')]
    public function testAChangedMessageIsRefusedByReseal(callable $tamper, string $refusal): void
    {
        $keys = self::ring(1, 2);
        $sealed = $tamper(rotating_seal('attack at dawn', 'users.email:42', $keys, 1));
        foreach ([1, 2] as $currentKeyId) {
            try {
                rotating_reseal($sealed, 'users.email:42', $keys, $currentKeyId);
                self::fail("expected reseal under key {$currentKeyId} to refuse the changed message");
            } catch (RuntimeException $e) {
                self::assertSame($refusal, $e->getMessage());
            }
        }
    }

    public function testResealRefusesOtherAssociatedDataUnderEitherKey(): void
    {
        $keys = self::ring(1, 2);
        $sealed = rotating_seal('attack at dawn', 'users.email:42', $keys, 1);
        foreach ([1, 2] as $currentKeyId) {
            try {
                rotating_reseal($sealed, 'users.email:43', $keys, $currentKeyId);
                self::fail("expected reseal under key {$currentKeyId} to refuse other associated data");
            } catch (RuntimeException $e) {
                self::assertSame(self::REFUSED, $e->getMessage());
            }
        }
    }

    public function testResealKeepsTheAssociatedData(): void
    {
        $keys = self::ring(1, 2);
        $resealed = rotating_reseal(rotating_seal('attack at dawn', 'users.email:42', $keys, 1), 'users.email:42', $keys, 2);
        self::assertSame('attack at dawn', rotating_open($resealed, 'users.email:42', $keys));
        $this->expectException(RuntimeException::class);
        $this->expectExceptionMessage(self::REFUSED);
        rotating_open($resealed, '', $keys);
    }

    public function testTheHeaderIsAuthenticatedEvenWhereAnotherIdNamesTheSameKey(): void
    {
        // Only the tag can tell these apart: the header is part of the associated data.
        $key = sodium_crypto_aead_xchacha20poly1305_ietf_keygen();
        $keys = [1 => $key, 2 => $key];
        $sealed = rotating_seal('attack at dawn', '', $keys, 1);
        $this->expectException(RuntimeException::class);
        $this->expectExceptionMessage(self::REFUSED);
        rotating_open("\x01" . pack('N', 2) . substr($sealed, self::HEADER), '', $keys);
    }

    public function testOtherAssociatedDataIsRefused(): void
    {
        $keys = self::ring(1);
        $sealed = rotating_seal('attack at dawn', 'users.email:42', $keys, 1);
        $this->expectException(RuntimeException::class);
        $this->expectExceptionMessage(self::REFUSED);
        rotating_open($sealed, 'users.email:43', $keys);
    }

    public function testAnotherKeyUnderTheSameIdIsRefused(): void
    {
        $sealed = rotating_seal('attack at dawn', '', self::ring(1), 1);
        $this->expectException(RuntimeException::class);
        $this->expectExceptionMessage(self::REFUSED);
        rotating_open($sealed, '', self::ring(1));
    }

    public function testTheCurrentKeyIdMustBeInTheRing(): void
    {
        $this->expectException(InvalidArgumentException::class);
        $this->expectExceptionMessage('expected the current key id 3 in the key ring, found ids 1, 2');
        rotating_seal('x', '', self::ring(1, 2), 3);
    }

    /** @return iterable<string, array{int}> */
    public static function outOfRangeIds(): iterable
    {
        yield 'negative' => [-1];
        yield 'more than 4 bytes' => [0x100000000];
    }

    /** @dataProvider outOfRangeIds */
    #[DataProvider('outOfRangeIds')]
    public function testAKeyIdThatDoesNotFitFourBytesIsRefused(int $keyId): void
    {
        $this->expectException(InvalidArgumentException::class);
        $this->expectExceptionMessage(sprintf('expected a key id from 0 to 4294967295, got %d', $keyId));
        rotating_seal('x', '', [$keyId => sodium_crypto_aead_xchacha20poly1305_ietf_keygen()], $keyId);
    }

    public function testTheHeaderAloneNamesItsKey(): void
    {
        // Five bytes are a header: the key id is read from it (the message is proven only once it opens).
        self::assertSame(7, rotating_key_id("\x01" . pack('N', 7)));
        self::assertSame(0xFFFFFFFF, rotating_key_id("\x01\xFF\xFF\xFF\xFF" . str_repeat("\0", 40)));
    }

    public function testAHeaderOfAnotherVersionNamesNoKey(): void
    {
        $this->expectException(RuntimeException::class);
        $this->expectExceptionMessage(self::REFUSED);
        rotating_key_id("\x02" . pack('N', 7));
    }

    public function testFourBytesAreNoHeader(): void
    {
        $this->expectException(RuntimeException::class);
        $this->expectExceptionMessage(self::REFUSED);
        rotating_key_id("\x01\0\0\0");
    }

    /** @return iterable<string, array{string}> a key that is in the ring, though no key */
    public static function emptyishKeys(): iterable
    {
        yield 'empty' => [''];
        yield '"0"' => ['0'];
    }

    /**
     * A key id in the ring with a key of another length is a broken ring, said as such: not "not in the
     * key ring", neither to seal nor to open.
     *
     * @dataProvider emptyishKeys
     */
    #[DataProvider('emptyishKeys')]
    public function testAnEmptyKeyInTheRingIsRefusedForItsLength(string $key): void
    {
        foreach ([
            static fn () => rotating_seal('x', '', [1 => $key], 1),
            static fn () => rotating_open(rotating_seal('x', '', self::ring(1), 1), '', [1 => $key]),
        ] as $call) {
            try {
                $call();
                self::fail('expected the key to be refused');
            } catch (InvalidArgumentException $e) {
                self::assertSame(sprintf('expected a 32-byte key, got %d bytes', strlen($key)), $e->getMessage());
            }
        }
    }

    public function testAKeyOfAnotherLengthInTheRingIsRefused(): void
    {
        $this->expectException(InvalidArgumentException::class);
        $this->expectExceptionMessage('expected a 32-byte key, got 16 bytes');
        rotating_seal('x', '', [1 => random_bytes(16)], 1);
    }
}
