<?php

declare(strict_types=1);

namespace PhpCryptoBench\Tests\Environment;

use PhpCryptoBench\Environment\PhpFeatures;
use PHPUnit\Framework\TestCase;
use PHPUnit\Framework\Attributes\DataProvider;

/** The PHP 8.1 paths of PhpFeatures, run here on a newer PHP and compared with the newer path. */
final class PhpFeaturesTest extends TestCase
{
    private const PHP81 = 80100;

    /** What PHP 8.1 computes for every cipher name, next to what PHP 8.2+ reads from OpenSSL. */
    private const COMPARE = <<<'PHP'
        require $argv[1];
        $rows = [];
        foreach (openssl_get_cipher_methods() as $cipher) {
            $rows[$cipher] = [
                \PhpCryptoBench\Environment\PhpFeatures::cipherKeyLength($cipher),
                \PhpCryptoBench\Environment\PhpFeatures::cipherKeyLength($cipher, 80100),
            ];
        }
        echo json_encode($rows);
        PHP;

    public function testTheVersionSwitchIsAtPhp82(): void
    {
        self::assertFalse(PhpFeatures::hasCipherKeyLength(self::PHP81));
        self::assertFalse(PhpFeatures::hasCipherKeyLength(80199));
        self::assertTrue(PhpFeatures::hasCipherKeyLength(80200));
        self::assertTrue(PhpFeatures::hasCipherKeyLength(80400));
        self::assertSame(PHP_VERSION_ID >= 80200, PhpFeatures::hasCipherKeyLength());
        self::assertGreaterThanOrEqual(PhpFeatures::MINIMUM_VERSION_ID, PHP_VERSION_ID, 'the runner needs PHP ' . PhpFeatures::MINIMUM_VERSION);
    }

    /** @return iterable<string, array{string, string}> */
    public static function providers(): iterable
    {
        yield 'default provider' => ['openssl-default.cnf', 'aes-128-gcm'];
        yield 'with the legacy provider (Blowfish, CAST5, DES, RC2, RC4, SEED)' => ['openssl-legacy.cnf', 'bf-cbc'];
    }

    /** @dataProvider providers */
    #[DataProvider('providers')]
    public function testPhp81SizesEveryCipherKeyAsOpensslDoes(string $config, string $listed): void
    {
        $rows = self::inChild(REPOSITORY . '/runners/' . $config);
        self::assertArrayHasKey($listed, $rows);
        $commandLengths = PhpFeatures::hasCipherKeyLength() ? [] : self::commandKeyLengths(
            array_map('strval', array_keys(array_filter($rows, static fn (array $row): bool => $row[1] !== false))),
            REPOSITORY . '/runners/' . $config,
        );
        $differ = [];
        foreach ($rows as $cipher => [$native, $php81]) {
            // PHP 8.1 has no openssl_cipher_key_length(): there, OpenSSL's own command says, for the ciphers
            // PHP offers (both paths ask openssl_cipher_iv_length() which those are) and the command takes.
            if (!PhpFeatures::hasCipherKeyLength()) {
                $native = $php81 === false ? false : $commandLengths[(string) $cipher];
            }
            if ($native !== null && $native !== $php81) {
                $differ[] = sprintf('%s: OpenSSL %s, PHP 8.1 path %s', $cipher, var_export($native, true), var_export($php81, true));
            }
        }
        self::assertSame([], $differ, implode("\n", $differ));
    }

    /** The oracle PHP 8.1 is checked against is itself checked here, where PHP can read OpenSSL's key length. */
    public function testOpensslsCommandSizesKeysAsPhpReadsThem(): void
    {
        if (!PhpFeatures::hasCipherKeyLength()) {
            self::assertSame(32, self::commandKeyLength('aes-256-cbc', REPOSITORY . '/runners/openssl-default.cnf'));
            return;
        }
        $compared = 0;
        $rows = self::inChild(REPOSITORY . '/runners/openssl-legacy.cnf');
        $commandLengths = self::commandKeyLengths(
            array_map('strval', array_keys(array_filter($rows, static fn (array $row): bool => $row[0] !== false))),
            REPOSITORY . '/runners/openssl-legacy.cnf',
        );
        foreach ($rows as $cipher => [$native]) {
            $command = $native === false ? null : $commandLengths[(string) $cipher];
            if ($command === null) {
                continue; // not offered through PHP, or not taken by the command
            }
            self::assertSame($native, $command, (string) $cipher);
            $compared++;
        }
        self::assertGreaterThan(50, $compared, 'the command takes most ciphers (not AEAD, XTS or key wrap)');
    }

    /**
     * The key length `openssl enc -P` prints for a cipher (its key in hex), or null where the command
     * does not take the cipher (AEAD, XTS, key wrap) or the configuration does not offer it.
     */
    private static function commandKeyLength(string $cipher, string $opensslConf): ?int
    {
        // One PBKDF2 iteration: the key's length is what is read, not a key worth 10,000 iterations.
        $process = proc_open(['openssl', 'enc', '-' . $cipher, '-P', '-nosalt', '-pbkdf2', '-iter', '1', '-pass', 'pass:x'], [0 => ['file', '/dev/null', 'r'], 1 => ['pipe', 'w'], 2 => ['pipe', 'w']], $pipes, null, ['OPENSSL_CONF' => $opensslConf] + getenv());
        self::assertIsResource($process);
        $out = (string) stream_get_contents($pipes[1]);
        stream_get_contents($pipes[2]);
        proc_close($process);
        return preg_match('/^key=([0-9A-F]*)$/m', $out, $match) === 1 ? intdiv(strlen($match[1]), 2) : null;
    }

    /**
     * commandKeyLength() of each cipher, the commands run by one shell: started one by one from PHPUnit's
     * process (a fork of its whole heap each), they cost nearly as much CPU again as the commands. A line
     * `cipher=NAME` before each command's output says whose key follows, and that it ran for that cipher.
     *
     * @param list<string> $ciphers
     * @return array<string, int|null>
     */
    private static function commandKeyLengths(array $ciphers, string $opensslConf): array
    {
        $script = 'for cipher do printf "cipher=%s\n" "$cipher"; openssl enc "-$cipher" -P -nosalt -pbkdf2 -iter 1 -pass pass:x </dev/null 2>/dev/null; done';
        $process = proc_open(['sh', '-c', $script, 'sh', ...$ciphers], [0 => ['file', '/dev/null', 'r'], 1 => ['pipe', 'w'], 2 => ['pipe', 'w']], $pipes, null, ['OPENSSL_CONF' => $opensslConf] + getenv());
        self::assertIsResource($process);
        $out = (string) stream_get_contents($pipes[1]);
        stream_get_contents($pipes[2]);
        proc_close($process);
        $lengths = [];
        $cipher = null;
        foreach (explode("\n", $out) as $line) {
            if (str_starts_with($line, 'cipher=')) {
                $cipher = substr($line, strlen('cipher='));
                $lengths[$cipher] = null;
            } elseif ($cipher !== null && preg_match('/^key=([0-9A-F]*)$/', $line, $match) === 1) {
                $lengths[$cipher] = intdiv(strlen($match[1]), 2);
            }
        }
        foreach ($ciphers as $asked) {
            self::assertArrayHasKey($asked, $lengths, 'the command ran for ' . $asked);
        }
        return $lengths;
    }

    public function testPhp81RefusesANameOpensslDoesNotKnowWithTheSameWarning(): void
    {
        error_clear_last();
        self::assertFalse(PhpFeatures::cipherKeyLength('aes-128-cbc-cts', self::PHP81));
        self::assertSame('openssl_cipher_iv_length(): Unknown cipher algorithm', error_get_last()['message'] ?? null);
        self::assertFalse(PhpFeatures::cipherKeyLength('no-such-cipher', self::PHP81));
        self::assertSame(16, PhpFeatures::cipherKeyLength('aes-128-gcm', self::PHP81));
    }

    /** @return iterable<string, array{string, int|null}> */
    public static function names(): iterable
    {
        yield 'AES-256' => ['aes-256-cbc', 32];
        yield 'XTS takes two keys' => ['aes-128-xts', 32];
        yield 'upper case' => ['AES-192-GCM', 24];
        yield 'an alias without the dash' => ['aes128-wrap', 16];
        yield 'the id- alias' => ['id-aes256-GCM', 32];
        yield 'two-key triple DES' => ['des-ede-cbc', 16];
        yield 'three-key triple DES' => ['des-ede3-cfb8', 24];
        yield 'single DES' => ['des-cbc', 8];
        yield '40-bit RC2' => ['rc2-40-cbc', 5];
        yield 'ChaCha20-Poly1305' => ['chacha20-poly1305', 32];
        yield 'SM4' => ['sm4-ctr', 16];
        yield 'unknown' => ['kuznyechik-cbc', null];
        yield 'the null cipher' => ['null', null];
    }

    /** @dataProvider names */
    #[DataProvider('names')]
    public function testTheNameTableKnowsOpensslDefaults(string $cipher, ?int $bytes): void
    {
        self::assertSame($bytes, PhpFeatures::keyLengthFromName($cipher));
    }

    /** @return array<string, array{int|false, int|false}> */
    private static function inChild(string $opensslConf): array
    {
        $environment = getenv();
        $environment['OPENSSL_CONF'] = $opensslConf;
        $process = proc_open([PHP_BINARY, '-r', self::COMPARE, REPOSITORY . '/runners/bootstrap.php'], [1 => ['pipe', 'w'], 2 => ['pipe', 'w']], $pipes, null, $environment);
        self::assertIsResource($process);
        $out = (string) stream_get_contents($pipes[1]);
        $err = (string) stream_get_contents($pipes[2]);
        self::assertSame(0, proc_close($process), $err);
        $rows = json_decode($out, true);
        self::assertIsArray($rows, $out . $err);
        return $rows;
    }
}
