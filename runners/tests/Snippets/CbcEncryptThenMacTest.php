<?php

declare(strict_types=1);

namespace PhpCryptoBench\Tests\Snippets;

use InvalidArgumentException;
use RuntimeException;
use PHPUnit\Framework\Attributes\DataProvider;

/**
 * runners/snippets/cbc-encrypt-then-mac.php: IV (16) ‖ AES-256-CBC ciphertext ‖ HMAC-SHA-256 (32),
 * the tag checked before anything is decrypted, every change refused with one message.
 */
final class CbcEncryptThenMacTest extends SnippetTestCase
{
    private const IV = 16;
    private const TAG = 32;
    private const REFUSED = 'the message could not be authenticated';

    public static function snippet(): string
    {
        return 'cbc-encrypt-then-mac.php';
    }

    /** @return iterable<string, array{string, string}> */
    public static function messages(): iterable
    {
        yield 'empty, no associated data' => ['', ''];
        yield 'one byte' => ['x', 'users.email:42'];
        yield 'a block less one' => [str_repeat('a', 15), 'users.email:42'];
        yield 'exactly a block (a whole block of padding follows)' => [str_repeat('b', 16), 'users.email:42'];
        yield 'binary, 4 KiB, ending in zero bytes' => [random_bytes(4094) . "\0\0", "\0\x01binary"];
    }

    /** @dataProvider messages */
    #[DataProvider('messages')]
    public function testWhatIsSealedOpensWithTheSameKeyAndAssociatedData(string $plaintext, string $associatedData): void
    {
        $key = random_bytes(32);
        $sealed = cbc_hmac_seal($plaintext, $associatedData, $key);

        // PKCS#7 always adds 1 to 16 bytes.
        self::assertSame(self::IV + 16 * (intdiv(strlen($plaintext), 16) + 1) + self::TAG, strlen($sealed));
        self::assertSame($plaintext, cbc_hmac_open($sealed, $associatedData, $key));
    }

    public function testEachMessageGetsItsOwnRandomIv(): void
    {
        $key = random_bytes(32);
        $first = cbc_hmac_seal('same', '', $key);
        $second = cbc_hmac_seal('same', '', $key);
        self::assertNotSame(substr($first, 0, self::IV), substr($second, 0, self::IV));
        self::assertNotSame($first, $second);
    }

    public function testTheTwoDerivedKeysDifferFromEachOtherAndFromTheKey(): void
    {
        $key = random_bytes(32);
        ['encryption' => $encryption, 'authentication' => $authentication] = cbc_hmac_keys($key);
        self::assertSame([32, 32], [strlen($encryption), strlen($authentication)]);
        self::assertNotSame($encryption, $authentication);
        self::assertNotContains($key, [$encryption, $authentication]);
        self::assertSame(cbc_hmac_keys($key), cbc_hmac_keys($key), 'the same key derives the same two keys');
    }

    /** @return iterable<string, array{callable(string): string}> */
    public static function tamperings(): iterable
    {
        yield 'IV, first byte' => [static fn (string $s): string => self::flipped($s, 0)];
        yield 'IV, last byte' => [static fn (string $s): string => self::flipped($s, self::IV - 1)];
        yield 'ciphertext, first byte' => [static fn (string $s): string => self::flipped($s, self::IV)];
        yield 'ciphertext, last byte (its padding)' => [static fn (string $s): string => self::flipped($s, strlen($s) - self::TAG - 1)];
        yield 'tag, first byte' => [static fn (string $s): string => self::flipped($s, strlen($s) - self::TAG)];
        yield 'tag, last byte' => [static fn (string $s): string => self::flipped($s, strlen($s) - 1)];
        yield 'tag cut to 16 bytes' => [static fn (string $s): string => substr($s, 0, -16)];
        yield 'tag removed' => [static fn (string $s): string => substr($s, 0, -self::TAG)];
        yield 'a byte appended' => [static fn (string $s): string => $s . "\0"];
        yield 'a block appended' => [static fn (string $s): string => $s . str_repeat("\0", 16)];
        yield 'the first block of ciphertext removed' => [static fn (string $s): string => substr($s, 0, self::IV) . substr($s, self::IV + 16)];
        yield 'two blocks of ciphertext swapped' => [static fn (string $s): string => substr($s, 0, self::IV) . substr($s, self::IV + 16, 16) . substr($s, self::IV, 16) . substr($s, self::IV + 32)];
        yield 'only IV and tag' => [static fn (string $s): string => substr($s, 0, self::IV) . substr($s, -self::TAG)];
        yield 'empty' => [static fn (string $s): string => ''];
    }

    /**
     * @dataProvider tamperings
     * @param callable(string): string $tamper
     */
     #[DataProvider('tamperings')]
    public function testAChangedMessageIsRefusedBeforeItIsDecrypted(callable $tamper): void
    {
        $key = random_bytes(32);
        $sealed = $tamper(cbc_hmac_seal(str_repeat('attack at dawn! ', 3), 'users.email:42', $key));
        try {
            cbc_hmac_open($sealed, 'users.email:42', $key);
            self::fail('expected the message to be refused');
        } catch (RuntimeException $e) {
            self::assertSame(self::REFUSED, $e->getMessage());
        }
        // A decryption that failed (bad padding) would have left OpenSSL's reason queued: none means
        // the refusal came from the tag, before openssl_decrypt() saw the message.
        self::assertFalse(openssl_error_string());
    }

    public function testAValidTagOverBadPaddingIsRefusedWithTheSameMessage(): void
    {
        // Only a holder of the authentication key can make this; the answer still says nothing more. The
        // plaintext's last byte is 0: never PKCS#7 padding (random ciphertext would decrypt to valid
        // padding about once in 256 runs, and the test would fail by chance).
        $key = random_bytes(32);
        ['encryption' => $encryption, 'authentication' => $authentication] = cbc_hmac_keys($key);
        $iv = random_bytes(self::IV);
        $badlyPadded = random_bytes(31) . "\0";
        $ciphertext = openssl_encrypt($badlyPadded, 'aes-256-cbc', $encryption, OPENSSL_RAW_DATA | OPENSSL_ZERO_PADDING, $iv);
        self::assertIsString($ciphertext);
        self::assertSame(32, strlen($ciphertext), 'two blocks, no padding block added');
        $ivAndCiphertext = $iv . $ciphertext;
        $sealed = $ivAndCiphertext . cbc_hmac_tag($ivAndCiphertext, '', $authentication);
        $this->expectException(RuntimeException::class);
        $this->expectExceptionMessage(self::REFUSED);
        cbc_hmac_open($sealed, '', $key);
    }

    /** @return iterable<string, array{int}> lengths of IV ‖ ciphertext that are not an IV and whole blocks */
    public static function malformedBodies(): iterable
    {
        yield 'nothing' => [0];
        yield 'part of an IV' => [10];
        yield 'an IV, no block' => [self::IV];
        yield 'an IV and a byte' => [self::IV + 1];
        yield 'an IV and a block less one' => [self::IV + 15];
        yield 'an IV and a block and a byte' => [self::IV + 17];
        yield 'an IV and two blocks less one' => [self::IV + 31];
    }

    /**
     * Only a holder of the authentication key can tag these; the length is refused all the same, before
     * openssl_decrypt() sees them (no IV shorter than 16 bytes, nothing for it to fail on).
     *
     * @dataProvider malformedBodies
     */
    #[DataProvider('malformedBodies')]
    public function testAValidTagOverWhatIsNotAnIvAndWholeBlocksIsRefusedBeforeDecryption(int $bytes): void
    {
        $key = random_bytes(32);
        $body = $bytes > 0 ? random_bytes($bytes) : '';
        $sealed = $body . cbc_hmac_tag($body, 'users.email:42', cbc_hmac_keys($key)['authentication']);
        try {
            cbc_hmac_open($sealed, 'users.email:42', $key);
            self::fail('expected the message to be refused');
        } catch (RuntimeException $e) {
            self::assertSame(self::REFUSED, $e->getMessage());
        }
        self::assertFalse(openssl_error_string(), 'nothing was decrypted');
    }

    public function testOtherAssociatedDataIsRefused(): void
    {
        $key = random_bytes(32);
        $sealed = cbc_hmac_seal('attack at dawn', 'users.email:42', $key);
        $this->expectException(RuntimeException::class);
        $this->expectExceptionMessage(self::REFUSED);
        cbc_hmac_open($sealed, 'users.email:43', $key);
    }

    public function testBytesMovedFromTheAssociatedDataToTheIvAreRefused(): void
    {
        // Without the length in front of it, A ‖ B (associated data) ‖ IV ‖ ciphertext and A (associated
        // data) ‖ B (as the IV) ‖ IV ‖ ciphertext (as the ciphertext) would carry the same tag.
        $key = random_bytes(32);
        $moved = str_repeat('B', 16);
        $sealed = cbc_hmac_seal('attack at dawn', 'users.email:42' . $moved, $key);
        $this->expectException(RuntimeException::class);
        $this->expectExceptionMessage(self::REFUSED);
        cbc_hmac_open($moved . $sealed, 'users.email:42', $key);
    }

    public function testAnotherKeyIsRefused(): void
    {
        $sealed = cbc_hmac_seal('attack at dawn', '', random_bytes(32));
        $this->expectException(RuntimeException::class);
        $this->expectExceptionMessage(self::REFUSED);
        cbc_hmac_open($sealed, '', random_bytes(32));
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
        $sealed = cbc_hmac_seal('x', '', random_bytes(32));
        foreach ([static fn () => cbc_hmac_seal('x', '', $key), static fn () => cbc_hmac_open($sealed, '', $key)] as $call) {
            try {
                $call();
                self::fail('expected the key to be refused');
            } catch (InvalidArgumentException $e) {
                self::assertSame(sprintf('expected a 32-byte key, got %d bytes', $bytes), $e->getMessage());
            }
        }
    }
}
