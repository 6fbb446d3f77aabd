<?php

declare(strict_types=1);

namespace PhpCryptoBench\Tests\Snippets;

use InvalidArgumentException;
use PhpCryptoBench\Run\ChildPhp;
use RuntimeException;
use PHPUnit\Framework\Attributes\DataProvider;

/**
 * runners/snippets/p256-keygen-minimal-config.php with runners/openssl-minimal.cnf: new P-256 private
 * keys that sign and verify; the file named is the one OpenSSL reads, and a missing one is named.
 */
final class P256KeygenMinimalConfigTest extends SnippetTestCase
{
    private const MINIMAL_CONFIG = REPOSITORY . '/runners/openssl-minimal.cnf';

    /** n of P-256 (SEC 2, section 2.4.2), big-endian */
    private const P256_ORDER = "\xff\xff\xff\xff\x00\x00\x00\x00\xff\xff\xff\xff\xff\xff\xff\xff"
        . "\xbc\xe6\xfa\xad\xa7\x17\x9e\x84\xf3\xb9\xca\xc2\xfc\x63\x25\x51";

    public static function snippet(): string
    {
        return 'p256-keygen-minimal-config.php';
    }

    public function testEachKeyIsANewP256PrivateKeyThatSignsAndVerifies(): void
    {
        $first = p256_new_private_key(self::MINIMAL_CONFIG);
        $second = p256_new_private_key(self::MINIMAL_CONFIG);

        $details = openssl_pkey_get_details($first);
        self::assertSame(OPENSSL_KEYTYPE_EC, $details['type']);
        self::assertSame('prime256v1', $details['ec']['curve_name']);
        // OpenSSL gives d as a big-endian integer without leading zero bytes: one key in 256 is 31 bytes.
        $d = $details['ec']['d'];
        self::assertGreaterThanOrEqual(1, strlen($d), 'a private key');
        self::assertLessThanOrEqual(32, strlen($d), 'a private key');
        $padded = str_pad($d, 32, "\0", STR_PAD_LEFT);
        self::assertNotSame(str_repeat("\0", 32), $padded, 'a private key is not zero');
        self::assertLessThan(0, strcmp($padded, self::P256_ORDER), 'a private key is below the group order');
        self::assertNotSame($details['ec']['d'], openssl_pkey_get_details($second)['ec']['d']);
        $signature = '';
        self::assertTrue(openssl_sign('message', $signature, $first, 'sha256'));
        $public = openssl_pkey_get_public((string) $details['key']);
        self::assertNotFalse($public);
        self::assertSame(1, openssl_verify('message', $signature, $public, 'sha256'));
        self::assertSame(0, openssl_verify('message', $signature, (string) openssl_pkey_get_details($second)['key'], 'sha256'));
    }

    /** @return iterable<string, array{string}> */
    public static function missingFiles(): iterable
    {
        yield 'no such file' => ['/nonexistent/openssl-minimal.cnf'];
        yield 'a directory' => [REPOSITORY . '/runners'];
        yield 'empty path' => [''];
    }

    /** @dataProvider missingFiles */
    #[DataProvider('missingFiles')]
    public function testAMissingConfigurationIsNamed(string $path): void
    {
        $this->expectException(InvalidArgumentException::class);
        $this->expectExceptionMessage(sprintf('expected a readable OpenSSL configuration file at %s, found none', $path));
        p256_new_private_key($path);
    }

    public function testAnUnreadableConfigurationIsNamed(): void
    {
        // root reads every file whatever its mode: the call runs in a child PHP that, when it is root,
        // first becomes nobody (uid 65534), for whom a file of mode 0000 is unreadable.
        $unreadable = tempnam(sys_get_temp_dir(), 'pcb-cnf-');
        self::assertIsString($unreadable);
        // nobody must read the snippet itself: a checkout may sit in a directory only root can enter
        // (mktemp -d makes 0700), so the child requires a world-readable copy.
        $snippet = tempnam(sys_get_temp_dir(), 'pcb-snippet-');
        self::assertIsString($snippet);
        try {
            self::assertTrue(copy(self::DIRECTORY . '/' . self::snippet(), $snippet));
            self::assertTrue(chmod($snippet, 0644));
            self::assertTrue(copy(self::MINIMAL_CONFIG, $unreadable));
            self::assertTrue(chmod($unreadable, 0));
            $child = <<<'PHP'
                if (posix_geteuid() === 0 && !posix_setuid(65534)) {
                    exit(3);
                }
                require $argv[1];
                try {
                    p256_new_private_key($argv[2]);
                    exit(2);
                } catch (InvalidArgumentException $e) {
                    echo $e->getMessage();
                } catch (Throwable $e) {
                    echo get_class($e), ': ', $e->getMessage();
                    exit(1);
                }
                PHP;
            $command = [PHP_BINARY, ...ChildPhp::iniArguments(), '-r', $child, $snippet, $unreadable];
            $process = proc_open($command, [1 => ['pipe', 'w'], 2 => ['pipe', 'w']], $pipes);
            self::assertIsResource($process);
            $output = (string) stream_get_contents($pipes[1]);
            $errors = (string) stream_get_contents($pipes[2]);
            fclose($pipes[1]);
            fclose($pipes[2]);
            self::assertSame(0, proc_close($process), $output . $errors);
            self::assertSame(sprintf('expected a readable OpenSSL configuration file at %s, found none', $unreadable), $output);
        } finally {
            unlink($unreadable);
            unlink($snippet);
        }
    }

    public function testTheFileNamedIsTheOneOpensslReads(): void
    {
        $broken = tempnam(sys_get_temp_dir(), 'pcb-cnf-');
        self::assertIsString($broken);
        file_put_contents($broken, "[ req\ndefault_bits = 2048\n");
        try {
            $this->expectException(RuntimeException::class);
            $this->expectExceptionMessage('openssl_pkey_new() failed: ');
            p256_new_private_key($broken);
        } finally {
            unlink($broken);
        }
    }
}
