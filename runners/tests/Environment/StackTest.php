<?php

declare(strict_types=1);

namespace PhpCryptoBench\Tests\Environment;

use DateTimeImmutable;
use DateTimeZone;
use PhpCryptoBench\Environment\EnvironmentProbe;
use PhpCryptoBench\Environment\Stack;
use PhpCryptoBench\Exception\UsageError;
use PhpCryptoBench\Run\RunId;
use PHPUnit\Framework\TestCase;
use PHPUnit\Framework\Attributes\DataProvider;

final class StackTest extends TestCase
{
    private string $dir = '';

    protected function setUp(): void
    {
        $this->dir = sys_get_temp_dir() . '/phpcb-stack-' . bin2hex(random_bytes(4));
        mkdir($this->dir);
    }

    protected function tearDown(): void
    {
        array_map('unlink', glob($this->dir . '/*') ?: []);
        rmdir($this->dir);
        putenv(Stack::VARIABLE);
    }

    /** @return iterable<string, array{string|null, string|null}> */
    public static function versionTexts(): iterable
    {
        yield 'phpinfo library line' => ['OpenSSL 3.5.9 29 Sep 2026', '3.5.9'];
        yield 'a letter release' => ['OpenSSL 1.1.1w  11 Sep 2023', '1.1.1w'];
        yield 'nothing recorded' => [null, null];
        yield 'no version in it' => ['LibreSSL', null];
    }

    /** @dataProvider versionTexts */
    #[DataProvider('versionTexts')]
    public function testTheVersionNumberIsReadFromTheLibrarysText(?string $text, ?string $number): void
    {
        self::assertSame($number, Stack::versionNumber($text));
    }

    public function testTheCommandsLibraryIsWhatItRunsOnNotWhatItWasBuiltWith(): void
    {
        self::assertSame('3.0.19', Stack::cliLibrary('OpenSSL 3.0.22 25 Aug 2026 (Library: OpenSSL 3.0.19 25 Aug 2026)'));
        self::assertSame('3.5.9', Stack::cliLibrary('OpenSSL 3.5.9 29 Sep 2026 (Library: OpenSSL 3.5.9 29 Sep 2026)'));
        self::assertSame('3.0.2', Stack::cliLibrary('OpenSSL 3.0.2 15 Mar 2022'), 'a line without a library is taken at its word');
        self::assertNull(Stack::cliLibrary('fake'));
    }

    public function testTheHostStackUnlessTheLauncherNamesOne(): void
    {
        putenv(Stack::VARIABLE);
        self::assertSame('host', Stack::nameFromEnvironment());
        putenv(Stack::VARIABLE . '=debian13');
        self::assertSame('debian13', Stack::nameFromEnvironment());
        putenv(Stack::VARIABLE . '=ubuntu24.04');
        self::assertSame('ubuntu24.04', Stack::nameFromEnvironment());
    }

    /** @return iterable<string, array{string}> */
    public static function badNames(): iterable
    {
        yield 'upper case' => ['Debian13'];
        yield 'a slash' => ['../etc'];
        yield 'a trailing dash' => ['debian13-'];
        yield 'too long' => [str_repeat('a', 25)];
    }

    /** @dataProvider badNames */
    #[DataProvider('badNames')]
    public function testANameARunIdCannotCarryIsRefusedWithTheRule(string $name): void
    {
        putenv(Stack::VARIABLE . '=' . $name);
        $this->expectException(UsageError::class);
        $this->expectExceptionMessage(sprintf('at most 24 characters: lower-case letters and digits, joined by "-" or "."; got "%s"', $name));
        Stack::nameFromEnvironment();
    }

    public function testARunInAnotherStackCarriesItsNameInItsId(): void
    {
        $started = new DateTimeImmutable('2026-11-26 16:05:00', new DateTimeZone('UTC'));
        self::assertSame('20261126T1605Z-amd-epyc-fb7fc6-php8.2', RunId::make($started, 'amd-epyc-fb7fc6', '8.2.36'));
        self::assertSame('20261126T1605Z-amd-epyc-fb7fc6-php8.4-debian13', RunId::make($started, 'amd-epyc-fb7fc6', '8.4.27', 'debian13'));
    }

    public function testTheStackNamesTheRootsOsAndTheHostsWhereTheLauncherMountedIt(): void
    {
        file_put_contents($this->dir . '/os-release', "PRETTY_NAME=\"Debian GNU/Linux 13 (trixie)\"\nID=debian\n");
        file_put_contents($this->dir . '/host-os-release', "PRETTY_NAME=\"Debian GNU/Linux 12 (bookworm)\"\n");
        putenv(Stack::VARIABLE . '=debian13');
        $probe = new EnvironmentProbe(osReleasePath: $this->dir . '/os-release', hostOsReleasePath: $this->dir . '/host-os-release');
        $stack = $probe->stack('OpenSSL 3.5.9 29 Sep 2026 (Library: OpenSSL 3.5.9 29 Sep 2026)');
        self::assertSame('debian13', $stack['name']);
        self::assertSame('Debian GNU/Linux 13 (trixie)', $stack['os']);
        self::assertSame('Debian GNU/Linux 12 (bookworm)', $stack['host_os']);
        self::assertSame(PHP_VERSION, $stack['php']);
        self::assertSame('3.5.9', $stack['openssl_cli']);
        $loaded = (new EnvironmentProbe())->libraries()['openssl_library'];
        self::assertIsString($loaded, 'phpinfo names the OpenSSL library this PHP loaded');
        self::assertSame(Stack::versionNumber($loaded), $stack['openssl']);

        $host = new EnvironmentProbe(osReleasePath: $this->dir . '/os-release', hostOsReleasePath: $this->dir . '/absent');
        self::assertSame('Debian GNU/Linux 13 (trixie)', $host->stack('fake')['host_os'], 'without the mount, the root is the host');
    }

    public function testTheBootIsTheKernelsBootIdAndTheUptime(): void
    {
        file_put_contents($this->dir . '/boot_id', "3f99797a-0016-4293-9b0e-585ac511d014\n");
        file_put_contents($this->dir . '/uptime', "5123.45 9000.10\n");
        $probe = new EnvironmentProbe(bootIdPath: $this->dir . '/boot_id', uptimePath: $this->dir . '/uptime');
        self::assertSame(['id' => '3f99797a-0016-4293-9b0e-585ac511d014', 'uptime_s' => 5123], $probe->boot());
        $unreadable = new EnvironmentProbe(bootIdPath: $this->dir . '/absent', uptimePath: $this->dir . '/absent');
        self::assertSame(['id' => null, 'uptime_s' => null], $unreadable->boot());
        self::assertSame(EnvironmentProbe::FAKE_BOOT, EnvironmentProbe::forFakeClock()->boot());
    }

    public function testTheCpusIdentityTellsTwoHostsWithOneModelStringApart(): void
    {
        $block = static fn (string $microcode, string $flags): string => "processor\t: 0\nvendor_id\t: AuthenticAMD\ncpu family\t: 25\nmodel\t\t: 1\n"
            . "model name\t: AMD EPYC\nstepping\t: 1\nmicrocode\t: $microcode\ncache size\t: 512 KB\nflags\t\t: $flags\nbogomips\t: 4899.99\n";
        file_put_contents($this->dir . '/a', $block('0xa0011d1', 'fpu aes avx2'));
        file_put_contents($this->dir . '/b', $block('0xa0011d5', 'avx2 aes fpu'));
        file_put_contents($this->dir . '/c', $block('0xa0011d1', 'fpu aes avx2 avx512f'));
        $identity = static fn (string $file): array => (new EnvironmentProbe(cpuinfoPath: $file))->cpu()['identity'];
        $a = $identity($this->dir . '/a');
        self::assertSame(['vendor_id' => 'AuthenticAMD', 'family' => 25, 'model' => 1, 'stepping' => 1, 'microcode' => '0xa0011d1', 'cache' => '512 KB', 'bogomips' => 4899.99], array_diff_key($a, ['flags_sha256' => true]));
        self::assertSame(hash('sha256', 'aes avx2 fpu'), $a['flags_sha256'], 'every flag, sorted');
        self::assertSame($a['flags_sha256'], $identity($this->dir . '/b')['flags_sha256'], 'the order of the flags does not matter');
        self::assertNotSame($a['microcode'], $identity($this->dir . '/b')['microcode']);
        self::assertNotSame($a['flags_sha256'], $identity($this->dir . '/c')['flags_sha256']);
    }
}
