<?php

declare(strict_types=1);

namespace PhpCryptoBench\Tests\Snippets;

use InvalidArgumentException;
use RuntimeException;
use PHPUnit\Framework\Attributes\DataProvider;

/**
 * runners/snippets/aes-256-gcm.php: nonce (12) ‖ tag (16) ‖ ciphertext; every change refused, a tag
 * cut short refused (openssl_decrypt() alone checks as much of a tag as it is given), and a key of
 * any length but 32 bytes refused (openssl_encrypt() alone pads or cuts it).
 */
final class Aes256GcmTest extends SnippetTestCase
{
    private const NONCE = 12;
    private const TAG = 16;

    public static function snippet(): string
    {
        return 'aes-256-gcm.php';
    }

    /** @return iterable<string, array{string, string}> */
    public static function messages(): iterable
    {
        yield 'empty, no associated data' => ['', ''];
        yield 'one byte' => ['x', 'users.email:42'];
        yield 'a block and a bit' => [str_repeat('a', 17), 'users.email:42'];
        yield 'binary, 4 KiB' => [random_bytes(4096), "\0\x01binary"];
    }

    /** @dataProvider messages */
    #[DataProvider('messages')]
    public function testWhatIsSealedOpensWithTheSameKeyAndAssociatedData(string $plaintext, string $associatedData): void
    {
        $key = random_bytes(32);
        $sealed = aes256gcm_seal($plaintext, $associatedData, $key);

        self::assertSame(self::NONCE + self::TAG + strlen($plaintext), strlen($sealed));
        self::assertSame($plaintext, aes256gcm_open($sealed, $associatedData, $key));
        // The layout the page states: what openssl_decrypt() gets from each part.
        $nonce = substr($sealed, 0, self::NONCE);
        $tag = substr($sealed, self::NONCE, self::TAG);
        self::assertSame($plaintext, openssl_decrypt(substr($sealed, self::NONCE + self::TAG), 'aes-256-gcm', $key, OPENSSL_RAW_DATA, $nonce, $tag, $associatedData));
    }

    public function testEachMessageGetsItsOwnRandomNonce(): void
    {
        $key = random_bytes(32);
        $nonces = array_map(static fn (int $i): string => substr(aes256gcm_seal('same', '', $key), 0, self::NONCE), range(1, 8));
        self::assertCount(8, array_unique($nonces));
    }

    /** @return iterable<string, array{callable(string): string}> */
    public static function tamperings(): iterable
    {
        yield 'nonce changed' => [static fn (string $s): string => self::flipped($s, 0)];
        yield 'tag changed' => [static fn (string $s): string => self::flipped($s, self::NONCE)];
        yield 'tag, last byte changed' => [static fn (string $s): string => self::flipped($s, self::NONCE + self::TAG - 1)];
        yield 'ciphertext changed' => [static fn (string $s): string => self::flipped($s, self::NONCE + self::TAG + 2)];
        yield 'last byte cut' => [static fn (string $s): string => substr($s, 0, -1)];
        yield 'a byte appended' => [static fn (string $s): string => $s . "\0"];
        yield 'tag cut to 4 bytes, ciphertext kept' => [static fn (string $s): string => substr($s, 0, self::NONCE + 4) . substr($s, self::NONCE + self::TAG)];
        yield 'empty' => [static fn (string $s): string => ''];
    }

    /**
     * @dataProvider tamperings
     * @param callable(string): string $tamper
     */
    #[DataProvider('tamperings')]
    public function testAChangedMessageIsRefused(callable $tamper): void
    {
        $key = random_bytes(32);
        $sealed = $tamper(aes256gcm_seal('attack at dawn', 'users.email:42', $key));
        $this->expectException(RuntimeException::class);
        $this->expectExceptionMessage('the message could not be authenticated');
        aes256gcm_open($sealed, 'users.email:42', $key);
    }

    /** @return iterable<string, array{int}> */
    public static function truncatedTags(): iterable
    {
        yield '15 bytes' => [15];
        yield '4 bytes' => [4];
        yield '1 byte' => [1];
        yield 'none' => [0];
    }

    /**
     * An empty message cut after $tagBytes of its tag: split naively (tag = the bytes after the
     * nonce, up to 16), openssl_decrypt() would be handed that short tag and an empty ciphertext.
     *
     * @dataProvider truncatedTags
     */
    #[DataProvider('truncatedTags')]
    public function testATagShorterThan16BytesIsRefused(int $tagBytes): void
    {
        $key = random_bytes(32);
        $sealed = substr(aes256gcm_seal('', '', $key), 0, self::NONCE + $tagBytes);
        $this->expectException(RuntimeException::class);
        $this->expectExceptionMessage('the message could not be authenticated');
        aes256gcm_open($sealed, '', $key);
    }

    public function testOtherAssociatedDataIsRefused(): void
    {
        $key = random_bytes(32);
        $sealed = aes256gcm_seal('attack at dawn', 'users.email:42', $key);
        $this->expectException(RuntimeException::class);
        aes256gcm_open($sealed, 'users.email:4', $key);
    }

    public function testAnotherKeyIsRefused(): void
    {
        $sealed = aes256gcm_seal('attack at dawn', '', random_bytes(32));
        $this->expectException(RuntimeException::class);
        $this->expectExceptionMessage('the message could not be authenticated');
        aes256gcm_open($sealed, '', random_bytes(32));
    }

    /** @return iterable<string, array{int}> */
    public static function wrongKeyLengths(): iterable
    {
        yield 'empty' => [0];
        yield '16 bytes (an AES-128 key)' => [16];
        yield '24 bytes' => [24];
        yield '31 bytes' => [31];
        yield '33 bytes' => [33];
        yield '64 bytes (hex of a key)' => [64];
    }

    /** @dataProvider wrongKeyLengths */
    #[DataProvider('wrongKeyLengths')]
    public function testAKeyOfAnotherLengthIsRefusedBothWays(int $bytes): void
    {
        $key = random_bytes(32);
        $wrong = substr(str_repeat($key, 2), 0, $bytes);
        $sealed = aes256gcm_seal('x', '', $key);
        foreach ([static fn () => aes256gcm_seal('x', '', $wrong), static fn () => aes256gcm_open($sealed, '', $wrong)] as $call) {
            try {
                $call();
                self::fail('expected the key to be refused');
            } catch (InvalidArgumentException $e) {
                self::assertSame(sprintf('expected a 32-byte key, got %d bytes', $bytes), $e->getMessage());
            }
        }
    }
}
