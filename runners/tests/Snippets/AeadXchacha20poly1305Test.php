<?php

declare(strict_types=1);

namespace PhpCryptoBench\Tests\Snippets;

use InvalidArgumentException;
use RuntimeException;
use PHPUnit\Framework\Attributes\DataProvider;

/** runners/snippets/aead-xchacha20poly1305.php: nonce (24) ‖ ciphertext ‖ tag (16), every change refused. */
final class AeadXchacha20poly1305Test extends SnippetTestCase
{
    private const NONCE = 24;
    private const TAG = 16;

    public static function snippet(): string
    {
        return 'aead-xchacha20poly1305.php';
    }

    /** @return iterable<string, array{string, string}> */
    public static function messages(): iterable
    {
        yield 'empty, no associated data' => ['', ''];
        yield 'one byte' => ['x', 'users.email:42'];
        yield 'a block and a bit' => [str_repeat('a', 65), 'users.email:42'];
        yield 'binary, 4 KiB' => [random_bytes(4096), "\0\x01binary"];
    }

    /** @dataProvider messages */
    #[DataProvider('messages')]
    public function testWhatIsSealedOpensWithTheSameKeyAndAssociatedData(string $plaintext, string $associatedData): void
    {
        $key = sodium_crypto_aead_xchacha20poly1305_ietf_keygen();
        $sealed = xchacha20poly1305_seal($plaintext, $associatedData, $key);

        self::assertSame(self::NONCE + strlen($plaintext) + self::TAG, strlen($sealed));
        self::assertSame($plaintext, xchacha20poly1305_open($sealed, $associatedData, $key));
    }

    public function testEachMessageGetsItsOwnRandomNonce(): void
    {
        $key = sodium_crypto_aead_xchacha20poly1305_ietf_keygen();
        $first = xchacha20poly1305_seal('same', '', $key);
        $second = xchacha20poly1305_seal('same', '', $key);
        self::assertNotSame(substr($first, 0, self::NONCE), substr($second, 0, self::NONCE));
        self::assertNotSame($first, $second);
    }

    /** @return iterable<string, array{callable(string): string}> */
    public static function tamperings(): iterable
    {
        yield 'nonce changed' => [static fn (string $s): string => self::flipped($s, 0)];
        yield 'nonce, last byte changed' => [static fn (string $s): string => self::flipped($s, self::NONCE - 1)];
        yield 'ciphertext changed' => [static fn (string $s): string => self::flipped($s, self::NONCE + 3)];
        yield 'tag changed' => [static fn (string $s): string => self::flipped($s, strlen($s) - 1)];
        yield 'tag cut to 4 bytes' => [static fn (string $s): string => substr($s, 0, -12)];
        yield 'a byte appended' => [static fn (string $s): string => $s . "\0"];
        yield 'only the nonce' => [static fn (string $s): string => substr($s, 0, self::NONCE)];
        yield 'cut inside the nonce' => [static fn (string $s): string => substr($s, 0, self::NONCE - 1)];
        yield 'a nonce and a tag less one byte' => [static fn (string $s): string => substr($s, 0, self::NONCE + 15)];
        yield 'empty' => [static fn (string $s): string => ''];
    }

    /**
     * @dataProvider tamperings
     * @param callable(string): string $tamper
     */
    #[DataProvider('tamperings')]
    public function testAChangedMessageIsRefused(callable $tamper): void
    {
        $key = sodium_crypto_aead_xchacha20poly1305_ietf_keygen();
        $sealed = $tamper(xchacha20poly1305_seal('attack at dawn', 'users.email:42', $key));
        $this->expectException(RuntimeException::class);
        $this->expectExceptionMessage('the message could not be authenticated');
        xchacha20poly1305_open($sealed, 'users.email:42', $key);
    }

    public function testOtherAssociatedDataIsRefused(): void
    {
        $key = sodium_crypto_aead_xchacha20poly1305_ietf_keygen();
        $sealed = xchacha20poly1305_seal('attack at dawn', 'users.email:42', $key);
        $this->expectException(RuntimeException::class);
        xchacha20poly1305_open($sealed, 'users.email:43', $key);
    }

    public function testAnotherKeyIsRefused(): void
    {
        $sealed = xchacha20poly1305_seal('attack at dawn', '', sodium_crypto_aead_xchacha20poly1305_ietf_keygen());
        $this->expectException(RuntimeException::class);
        $this->expectExceptionMessage('the message could not be authenticated');
        xchacha20poly1305_open($sealed, '', sodium_crypto_aead_xchacha20poly1305_ietf_keygen());
    }

    /** @return iterable<string, array{int}> */
    public static function wrongKeyLengths(): iterable
    {
        yield 'empty' => [0];
        yield '16 bytes' => [16];
        yield '31 bytes' => [31];
        yield '33 bytes' => [33];
        yield '64 bytes (hex of a key)' => [64];
    }

    /** @dataProvider wrongKeyLengths */
    #[DataProvider('wrongKeyLengths')]
    public function testAKeyOfAnotherLengthIsRefusedBothWays(int $bytes): void
    {
        $key = str_repeat('k', $bytes);
        $sealed = xchacha20poly1305_seal('x', '', sodium_crypto_aead_xchacha20poly1305_ietf_keygen());
        foreach ([static fn () => xchacha20poly1305_seal('x', '', $key), static fn () => xchacha20poly1305_open($sealed, '', $key)] as $call) {
            try {
                $call();
                self::fail('expected the key to be refused');
            } catch (InvalidArgumentException $e) {
                self::assertSame(sprintf('expected a 32-byte key, got %d bytes', $bytes), $e->getMessage());
            }
        }
    }
}
