<?php

declare(strict_types=1);

namespace PhpCryptoBench\Tests\Snippets;

use InvalidArgumentException;
use PhpCryptoBench\Run\ChildPhp;
use RuntimeException;
use PHPUnit\Framework\Attributes\DataProvider;
use PHPUnit\Framework\Attributes\IgnoreDeprecations;
use PHPUnit\Framework\Attributes\RequiresPhpExtension;

/**
 * runners/snippets/mcrypt-ciphertext-with-openssl.php: what ext-mcrypt encrypted (CBC, zero padding,
 * short keys zero-padded) comes back through OpenSSL, AES-128/192/256 and Blowfish, and reseals under
 * XChaCha20-Poly1305, whose every tampering is refused.
 *
 * @requires extension mcrypt
 */
#[RequiresPhpExtension('mcrypt')]
// mcrypt emits E_DEPRECATED on every call in newer PHPs, and these tests call it on purpose (PHPUnit 10+ reports them).
#[IgnoreDeprecations]
final class McryptCiphertextWithOpensslTest extends SnippetTestCase
{
    private const LEGACY_CONFIG = REPOSITORY . '/runners/openssl-legacy.cnf';
    private const DEFAULT_CONFIG = REPOSITORY . '/runners/openssl-default.cnf';

    public static function snippet(): string
    {
        return 'mcrypt-ciphertext-with-openssl.php';
    }

    /** @return iterable<string, array{string}> texts, as mcrypt mostly held: none ends in a zero byte */
    public static function plaintexts(): iterable
    {
        yield 'empty (mcrypt wrote one block of zeros)' => [''];
        yield 'one byte' => ['x'];
        yield 'a block less one' => [str_repeat('a', 15)];
        yield 'exactly one block (no padding added)' => [str_repeat('b', 16)];
        yield 'a block and one' => [str_repeat('c', 17)];
        yield 'binary, 1000 bytes, not ending in zero' => [random_bytes(999) . "\x01"];
    }

    /** @dataProvider plaintexts */
    #[DataProvider('plaintexts')]
    public function testMcryptEncryptAtEachAesKeySizeDecryptsWithOpenssl(string $plaintext): void
    {
        foreach ([16 => 'aes-128-cbc', 24 => 'aes-192-cbc', 32 => 'aes-256-cbc'] as $keyBytes => $cipher) {
            $key = random_bytes($keyBytes);
            $iv = random_bytes(16);
            $ciphertext = mcrypt_encrypt(MCRYPT_RIJNDAEL_128, $key, $plaintext, MCRYPT_MODE_CBC, $iv);

            self::assertSame(16 * max(1, (int) ceil(strlen($plaintext) / 16)), strlen($ciphertext), 'mcrypt zero-pads to whole blocks');
            self::assertSame([$cipher, $key, 0], mcrypt_cbc_openssl_parameters($key, 'rijndael-128'));
            self::assertSame($plaintext, mcrypt_cbc_decrypt($ciphertext, $key, $iv, 'rijndael-128'), $cipher);
        }
    }

    /** @return iterable<string, array{int, string}> key bytes => the AES mcrypt's zero padding made of it */
    public static function shortKeys(): iterable
    {
        yield '1 byte: AES-128' => [1, 'aes-128-cbc'];
        yield '10 bytes: AES-128' => [10, 'aes-128-cbc'];
        yield '16 bytes: AES-128, unpadded' => [16, 'aes-128-cbc'];
        yield '17 bytes: AES-192' => [17, 'aes-192-cbc'];
        yield "20 bytes (seed 001's SALT): AES-192" => [20, 'aes-192-cbc'];
        yield '24 bytes: AES-192, unpadded' => [24, 'aes-192-cbc'];
        yield '25 bytes: AES-256' => [25, 'aes-256-cbc'];
        yield '31 bytes: AES-256' => [31, 'aes-256-cbc'];
    }

    /**
     * mcrypt_encrypt() refuses these keys since PHP 5.6; before, it zero-padded them as libmcrypt's
     * mcrypt_generic_init() still does, which is how this test writes the old ciphertext.
     *
     * @dataProvider shortKeys
     */
     #[DataProvider('shortKeys')]
    public function testAShortKeyIsZeroPaddedAsMcryptDidAndChoosesTheAesVariant(int $keyBytes, string $cipher): void
    {
        $key = random_bytes($keyBytes);
        $iv = random_bytes(16);
        $plaintext = 'a secret from 2013, 39 bytes of it ...';
        $module = mcrypt_module_open(MCRYPT_RIJNDAEL_128, '', MCRYPT_MODE_CBC, '');
        self::assertSame(0, mcrypt_generic_init($module, $key, $iv));
        $ciphertext = mcrypt_generic($module, $plaintext);
        mcrypt_generic_deinit($module);
        mcrypt_module_close($module);

        [$name, $opensslKey] = mcrypt_cbc_openssl_parameters($key, 'rijndael-128');
        self::assertSame($cipher, $name);
        self::assertSame(intdiv((int) substr($cipher, 4, 3), 8), strlen($opensslKey), 'aes-N-cbc: N bits');
        self::assertStringStartsWith($key, $opensslKey);
        self::assertSame(str_repeat("\0", strlen($opensslKey) - $keyBytes), substr($opensslKey, $keyBytes));
        self::assertSame($plaintext, mcrypt_cbc_decrypt($ciphertext, $key, $iv, 'rijndael-128'));
    }

    public function testOpensslsDefaultPkcs7PaddingWouldRefuseMcryptsOutput(): void
    {
        // What the snippet's OPENSSL_ZERO_PADDING is for: zero bytes are not a valid PKCS#7 padding.
        $key = random_bytes(16);
        $iv = random_bytes(16);
        $ciphertext = mcrypt_encrypt(MCRYPT_RIJNDAEL_128, $key, 'eleven byte', MCRYPT_MODE_CBC, $iv);
        self::assertFalse(openssl_decrypt($ciphertext, 'aes-128-cbc', $key, OPENSSL_RAW_DATA, $iv));
        self::assertSame('eleven byte', mcrypt_cbc_decrypt($ciphertext, $key, $iv, 'rijndael-128'));
    }

    public function testATextLosesTrailingZeroBytesAsTheCommentSays(): void
    {
        $key = random_bytes(32);
        $iv = random_bytes(16);
        $ciphertext = mcrypt_encrypt(MCRYPT_RIJNDAEL_128, $key, "binary\0\0", MCRYPT_MODE_CBC, $iv);
        self::assertSame('binary', mcrypt_cbc_decrypt($ciphertext, $key, $iv, 'rijndael-128'));
    }

    /** @return iterable<string, array{string}> binary plaintexts, ending in zero bytes or not */
    public static function binaryPlaintexts(): iterable
    {
        yield 'two trailing zero bytes' => ["binary\0\0"];
        yield 'a whole block of zero bytes' => [str_repeat("\0", 16)];
        yield '17 zero bytes' => [str_repeat("\0", 17)];
        yield 'one zero byte' => ["\0"];
        yield 'empty' => [''];
        yield '1000 random bytes and a zero' => [random_bytes(1000) . "\0"];
        yield 'no zero at the end, 32 bytes' => [str_repeat("\x07", 32)];
    }

    /** @dataProvider binaryPlaintexts */
    #[DataProvider('binaryPlaintexts')]
    public function testABinaryPlaintextOfKnownLengthComesBackWhole(string $plaintext): void
    {
        $key = random_bytes(32);
        $iv = random_bytes(16);
        $ciphertext = mcrypt_encrypt(MCRYPT_RIJNDAEL_128, $key, $plaintext, MCRYPT_MODE_CBC, $iv);
        self::assertSame($plaintext, mcrypt_cbc_decrypt($ciphertext, $key, $iv, 'rijndael-128', strlen($plaintext)));
        $newKey = sodium_crypto_aead_xchacha20poly1305_ietf_keygen();
        $sealed = mcrypt_cbc_reseal($ciphertext, $key, $iv, 'rijndael-128', 'ad', $newKey, strlen($plaintext));
        self::assertSame($plaintext, xchacha20poly1305_open($sealed, 'ad', $newKey));
        // Every byte, padding included, when the length is nowhere.
        self::assertSame(str_pad($plaintext, strlen($ciphertext), "\0"), mcrypt_cbc_decrypt($ciphertext, $key, $iv, 'rijndael-128', strlen($ciphertext)));
    }

    /** @return iterable<string, array{string, int}> plaintext, a length that does not fit its padded output */
    public static function wrongLengths(): iterable
    {
        yield 'longer than the output' => ['eleven byte', 17];
        yield 'a whole block short' => [str_repeat('x', 20), 0];
        yield 'cuts into non-zero bytes' => ['eleven byte', 10];
        yield 'negative' => ['eleven byte', -1];
        yield 'two blocks of zeros are no padding of an empty plaintext' => [str_repeat("\0", 32), 0];
        yield 'a whole block of zeros is no padding of a non-empty plaintext' => [str_repeat('x', 16) . str_repeat("\0", 16), 16];
    }

    /** @dataProvider wrongLengths */
    #[DataProvider('wrongLengths')]
    public function testALengthThatDoesNotFitTheZeroPaddingIsRefused(string $plaintext, int $plaintextBytes): void
    {
        $key = random_bytes(16);
        $iv = random_bytes(16);
        $ciphertext = mcrypt_encrypt(MCRYPT_RIJNDAEL_128, $key, $plaintext, MCRYPT_MODE_CBC, $iv);
        $this->expectException(InvalidArgumentException::class);
        $this->expectExceptionMessage(sprintf('expected %d bytes of plaintext followed by zero padding, %d bytes of CBC output do not end so', $plaintextBytes, strlen($ciphertext)));
        mcrypt_cbc_decrypt($ciphertext, $key, $iv, 'rijndael-128', $plaintextBytes);
    }

    /** @return iterable<string, array{int}> */
    public static function blowfishKeys(): iterable
    {
        yield '1 byte' => [1];
        yield '5 bytes (OpenSSL would zero-pad it)' => [5];
        yield '16 bytes' => [16];
        yield '40 bytes' => [40];
        yield '56 bytes, the most' => [56];
    }

    /**
     * Blowfish needs OpenSSL's legacy provider, which a process loads at start: the mcrypt side and
     * the snippet run in a child PHP whose OPENSSL_CONF activates it, as the benchmark's symmetric
     * experiment does.
     *
     * @dataProvider blowfishKeys
     */
     #[DataProvider('blowfishKeys')]
    public function testMcryptBlowfishDecryptsWithOpensslsLegacyProvider(int $keyBytes): void
    {
        $result = self::inChild(self::LEGACY_CONFIG, <<<'PHP'
            $key = random_bytes((int) $argv[1]);
            // Blowfish repeats its key over 72 bytes: an all-zero key is the same key zero-padded (a 1-byte
            // key was "\0" in one run of 256), so OpenSSL's padding would not show. A non-zero first byte.
            $key[0] = chr(1 + ord($key[0]) % 255);
            $found = [];
            foreach (['', 'x', str_repeat('b', 8), str_repeat('c', 9), random_bytes(999) . "\x01"] as $plaintext) {
                $iv = random_bytes(8);
                $ciphertext = mcrypt_encrypt(MCRYPT_BLOWFISH, $key, $plaintext, MCRYPT_MODE_CBC, $iv);
                $found[] = [
                    'equal' => mcrypt_cbc_decrypt($ciphertext, $key, $iv, 'blowfish') === $plaintext,
                    'blocks' => strlen($ciphertext) / 8,
                    // Without OPENSSL_DONT_ZERO_PAD_KEY, OpenSSL pads a key under 16 bytes: another key.
                    'padded_key_equal' => rtrim((string) openssl_decrypt($ciphertext, 'bf-cbc', $key, OPENSSL_RAW_DATA | OPENSSL_ZERO_PADDING, $iv), "\0") === $plaintext,
                ];
            }
            echo json_encode($found);
            PHP, [(string) $keyBytes]);

        self::assertSame([true, true, true, true, true], array_column($result, 'equal'));
        self::assertSame([1, 1, 1, 2, 125], array_column($result, 'blocks'));
        $paddedKeyWorks = $keyBytes >= 16;
        self::assertSame(array_fill(0, 5, $paddedKeyWorks), array_column($result, 'padded_key_equal'), 'OpenSSL zero-pads only keys under 16 bytes');
    }

    public function testBlowfishWithoutTheLegacyProviderIsRefusedWithTheReason(): void
    {
        $result = self::inChild(self::DEFAULT_CONFIG, <<<'PHP'
            try {
                mcrypt_cbc_decrypt(str_repeat("\0", 8), 'key', str_repeat("\0", 8), 'blowfish');
                echo json_encode('decrypted');
            } catch (RuntimeException $e) {
                echo json_encode($e->getMessage());
            }
            PHP);
        self::assertSame("expected OpenSSL to offer bf-cbc, it does not: Blowfish needs OpenSSL 3's legacy provider (set OPENSSL_CONF to a configuration that activates it)", $result);
    }

    public function testOldCiphertextIsNotAuthenticatedSoAChangeOrAnotherKeyDecryptsToOtherBytes(): void
    {
        // Why the comment says reseal: mcrypt's CBC has no tag, and nothing here can tell.
        $key = random_bytes(32);
        $iv = random_bytes(16);
        $plaintext = str_repeat('pay 100 to alice; ', 4);
        $ciphertext = mcrypt_encrypt(MCRYPT_RIJNDAEL_128, $key, $plaintext, MCRYPT_MODE_CBC, $iv);

        $changedIv = mcrypt_cbc_decrypt($ciphertext, $key, self::flipped($iv, 4), 'rijndael-128');
        self::assertSame(strlen($plaintext), strlen($changedIv));
        self::assertNotSame($plaintext, $changedIv);
        self::assertSame(substr($plaintext, 16), substr($changedIv, 16), 'a changed IV changes exactly one bit of the first block');
        self::assertNotSame($plaintext, mcrypt_cbc_decrypt(self::flipped($ciphertext, 20), $key, $iv, 'rijndael-128'));
        self::assertNotSame($plaintext, mcrypt_cbc_decrypt($ciphertext, random_bytes(32), $iv, 'rijndael-128'));
    }

    /** @return iterable<string, array{string, string, string, string, string}> ciphertext, key, IV, cipher => the refusal */
    public static function refusals(): iterable
    {
        $block = str_repeat("\x11", 16);
        yield 'an IV of 8 bytes for AES' => [$block, str_repeat('k', 16), str_repeat('i', 8), 'rijndael-128', 'expected a 16-byte IV for rijndael-128, got 8 bytes'];
        yield 'an IV of 17 bytes for AES' => [$block, str_repeat('k', 16), $block . 'i', 'rijndael-128', 'expected a 16-byte IV for rijndael-128, got 17 bytes'];
        yield 'no ciphertext' => ['', str_repeat('k', 16), $block, 'rijndael-128', 'expected whole 16-byte blocks, got 0 bytes'];
        yield 'a block cut short' => [substr($block . $block, 0, 31), str_repeat('k', 16), $block, 'rijndael-128', 'expected whole 16-byte blocks, got 31 bytes'];
        yield 'an empty key' => [$block, '', $block, 'rijndael-128', 'expected a key of 1 to 32 bytes for rijndael-128, got 0 bytes'];
        yield 'a 33-byte key (mcrypt refused it too)' => [$block, str_repeat('k', 33), $block, 'rijndael-128', 'expected a key of 1 to 32 bytes for rijndael-128, got 33 bytes'];
        yield 'an empty Blowfish key' => [$block, '', substr($block, 0, 8), 'blowfish', 'expected a key of 1 to 56 bytes for blowfish, got 0 bytes'];
        yield 'a 57-byte Blowfish key' => [$block, str_repeat('k', 57), $block, 'blowfish', 'expected a key of 1 to 56 bytes for blowfish, got 57 bytes'];
        yield 'rijndael-256, which is not AES' => [$block . $block, str_repeat('k', 32), $block . $block, 'rijndael-256', "expected 'rijndael-128' (MCRYPT_RIJNDAEL_128) or 'blowfish' (MCRYPT_BLOWFISH), got 'rijndael-256': MCRYPT_RIJNDAEL_256 is not AES and OpenSSL has no Rijndael-256; decrypt it once with mcrypt or phpseclib's Rijndael and reseal it with an AEAD"];
        yield 'tripledes' => [$block, str_repeat('k', 24), substr($block, 0, 8), 'tripledes', "expected 'rijndael-128' (MCRYPT_RIJNDAEL_128) or 'blowfish' (MCRYPT_BLOWFISH), got 'tripledes'"];
    }

    /** @dataProvider refusals */
    #[DataProvider('refusals')]
    public function testWhatIsNotMcryptCbcOutputIsRefused(string $ciphertext, string $key, string $iv, string $cipher, string $reason): void
    {
        $this->expectException(InvalidArgumentException::class);
        $this->expectExceptionMessage($reason);
        mcrypt_cbc_decrypt($ciphertext, $key, $iv, $cipher);
    }

    public function testResealedUnderXchacha20poly1305ItOpensWithTheNewKeyAndAssociatedData(): void
    {
        $oldKey = random_bytes(20);
        $iv = random_bytes(16);
        $ciphertext = self::mcryptGeneric($oldKey, $iv, 'card 4111 1111 1111 1111');
        $newKey = sodium_crypto_aead_xchacha20poly1305_ietf_keygen();

        $sealed = mcrypt_cbc_reseal($ciphertext, $oldKey, $iv, 'rijndael-128', 'payments.card:7', $newKey);
        self::assertSame(24 + 24 + 16, strlen($sealed));
        self::assertSame('card 4111 1111 1111 1111', xchacha20poly1305_open($sealed, 'payments.card:7', $newKey));
    }

    /** @return iterable<string, array{callable(string): string, string, bool}> tampering, associated data, another key */
    public static function resealedTamperings(): iterable
    {
        $same = static fn (string $s): string => $s;
        yield 'nonce changed' => [static fn (string $s): string => self::flipped($s, 0), 'payments.card:7', false];
        yield 'ciphertext changed' => [static fn (string $s): string => self::flipped($s, 30), 'payments.card:7', false];
        yield 'tag changed' => [static fn (string $s): string => self::flipped($s, strlen($s) - 1), 'payments.card:7', false];
        yield 'cut short' => [static fn (string $s): string => substr($s, 0, -1), 'payments.card:7', false];
        yield 'a byte appended' => [static fn (string $s): string => $s . "\0", 'payments.card:7', false];
        yield 'moved to another row' => [$same, 'payments.card:8', false];
        yield 'another key' => [$same, 'payments.card:7', true];
    }

    /**
     * @dataProvider resealedTamperings
     * @param callable(string): string $tamper
     */
     #[DataProvider('resealedTamperings')]
    public function testEveryChangeToTheResealedRecordIsRefused(callable $tamper, string $associatedData, bool $anotherKey): void
    {
        $oldKey = random_bytes(16);
        $iv = random_bytes(16);
        $newKey = sodium_crypto_aead_xchacha20poly1305_ietf_keygen();
        $sealed = mcrypt_cbc_reseal(mcrypt_encrypt(MCRYPT_RIJNDAEL_128, $oldKey, 'card', MCRYPT_MODE_CBC, $iv), $oldKey, $iv, 'rijndael-128', 'payments.card:7', $newKey);

        $this->expectException(RuntimeException::class);
        $this->expectExceptionMessage('the message could not be authenticated');
        xchacha20poly1305_open($tamper($sealed), $associatedData, $anotherKey ? sodium_crypto_aead_xchacha20poly1305_ietf_keygen() : $newKey);
    }

    public function testTheMcryptKeyIsNotTakenAsTheNewKey(): void
    {
        $key = random_bytes(32);
        $iv = random_bytes(16);
        $ciphertext = mcrypt_encrypt(MCRYPT_RIJNDAEL_128, $key, 'x', MCRYPT_MODE_CBC, $iv);
        $this->expectException(InvalidArgumentException::class);
        $this->expectExceptionMessage('expected a new key, got the mcrypt key again');
        mcrypt_cbc_reseal($ciphertext, $key, $iv, 'rijndael-128', '', $key);
    }

    /** @return iterable<string, array{string, string}> an mcrypt key => a new key that differs from it */
    public static function otherNewKeys(): iterable
    {
        $key = random_bytes(32);
        yield 'the same first 16 bytes' => [$key, substr($key, 0, 16) . random_bytes(16)];
        yield 'the same last byte only' => [$key, random_bytes(31) . $key[31]];
        // Numeric strings PHP's == would call equal (1e31): the keys are compared byte for byte.
        yield 'equal as numbers' => [str_pad('1', 32, '0'), str_pad('1e31', 32, ' ')];
    }

    /** @dataProvider otherNewKeys */
    #[DataProvider('otherNewKeys')]
    public function testANewKeyThatDiffersInAnyByteIsTaken(string $oldKey, string $newKey): void
    {
        $iv = random_bytes(16);
        $ciphertext = mcrypt_encrypt(MCRYPT_RIJNDAEL_128, $oldKey, 'card', MCRYPT_MODE_CBC, $iv);
        $sealed = mcrypt_cbc_reseal($ciphertext, $oldKey, $iv, 'rijndael-128', 'payments.card:7', $newKey);
        self::assertSame('card', xchacha20poly1305_open($sealed, 'payments.card:7', $newKey));
    }

    public function testANewKeyOfAnotherLengthIsRefused(): void
    {
        $key = random_bytes(16);
        $iv = random_bytes(16);
        $ciphertext = mcrypt_encrypt(MCRYPT_RIJNDAEL_128, $key, 'x', MCRYPT_MODE_CBC, $iv);
        $this->expectException(InvalidArgumentException::class);
        $this->expectExceptionMessage('expected a 32-byte key, got 16 bytes');
        mcrypt_cbc_reseal($ciphertext, $key, $iv, 'rijndael-128', '', random_bytes(16));
    }

    /** CBC through libmcrypt's own key handling, which zero-pads a short key (PHP < 5.6's mcrypt_encrypt did the same). */
    private static function mcryptGeneric(string $key, string $iv, string $plaintext): string
    {
        $module = mcrypt_module_open(MCRYPT_RIJNDAEL_128, '', MCRYPT_MODE_CBC, '');
        mcrypt_generic_init($module, $key, $iv);
        $ciphertext = mcrypt_generic($module, $plaintext);
        mcrypt_generic_deinit($module);
        mcrypt_module_close($module);
        return $ciphertext;
    }

    /**
     * Runs $code in a child PHP (this one, same extensions) with the snippet loaded and OPENSSL_CONF
     * set to $config; returns what it printed, decoded from JSON.
     *
     * @param list<string> $arguments $argv[1] and on
     */
    private static function inChild(string $config, string $code, array $arguments = []): mixed
    {
        $script = sprintf('require %s; %s', var_export(self::DIRECTORY . '/' . self::snippet(), true), $code);
        // Warnings and errors reach stderr and fail the test; mcrypt's deprecation notices (newer PHPs) do not.
        $command = [PHP_BINARY, ...ChildPhp::iniArguments(), '-d', 'display_errors=stderr', '-d', 'error_reporting=' . (E_ALL & ~E_DEPRECATED), '-r', $script, ...$arguments];
        $environment = ['OPENSSL_CONF' => $config] + getenv();
        $process = proc_open($command, [1 => ['pipe', 'w'], 2 => ['pipe', 'w']], $pipes, null, $environment);
        self::assertIsResource($process);
        $stdout = (string) stream_get_contents($pipes[1]);
        $stderr = (string) stream_get_contents($pipes[2]);
        fclose($pipes[1]);
        fclose($pipes[2]);
        self::assertSame(0, proc_close($process), $stderr);
        self::assertSame('', $stderr);
        return json_decode($stdout, true, 8, JSON_THROW_ON_ERROR);
    }
}
