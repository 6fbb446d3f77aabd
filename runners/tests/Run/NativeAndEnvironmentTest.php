<?php

declare(strict_types=1);

namespace PhpCryptoBench\Tests\Run;

use PhpCryptoBench\Environment\EnvironmentProbe;
use PhpCryptoBench\Native\OpensslSpeedCommand;
use PhpCryptoBench\Run\RunId;
use DateTimeImmutable;
use DateTimeZone;
use PHPUnit\Framework\TestCase;

final class NativeAndEnvironmentTest extends TestCase
{
    public function testParsesTheLastLineOfOpensslSpeedAsThousandsOfBytesPerSecond(): void
    {
        $output = "Doing AES-256-GCM for 1s on 16384 size blocks: 134198 AES-256-GCM's in 1.00s\n"
            . "version: 3.0.19\nThe 'numbers' are in 1000s of bytes per second processed.\n"
            . "type          16384 bytes\nAES-256-GCM    2198667.26k\n";
        self::assertSame(2198667260.0, OpensslSpeedCommand::parse($output, 16384));
        self::assertNull(OpensslSpeedCommand::parse("speed: Unknown algorithm rot13\n", 16384));
    }

    public function testRunIdSortsByTimeAndNamesHostAndPhp(): void
    {
        $started = new DateTimeImmutable('2026-11-21T23:05:59', new DateTimeZone('UTC'));
        self::assertSame('20261121T2305Z-build-01-php8.2', RunId::make($started, 'build-01', '8.2.36'));
    }

    public function testReadsCpuModelCoresFlagsMemoryAndOsFromTheSystemFiles(): void
    {
        $dir = sys_get_temp_dir() . '/pcb-env-' . bin2hex(random_bytes(4));
        mkdir($dir);
        file_put_contents($dir . '/cpuinfo', "processor\t: 0\nmodel name\t: Test CPU @ 3.00GHz\nflags\t\t: fpu aes avx2 pclmulqdq\n\n"
            . "processor\t: 1\nmodel name\t: Test CPU @ 3.00GHz\nflags\t\t: fpu aes avx2 pclmulqdq\n");
        file_put_contents($dir . '/meminfo', "MemTotal:       2048 kB\nMemFree: 1 kB\n");
        file_put_contents($dir . '/os-release', "NAME=\"Debian\"\nPRETTY_NAME=\"Debian GNU/Linux 12 (bookworm)\"\n");
        $probe = new EnvironmentProbe($dir . '/cpuinfo', $dir . '/meminfo', $dir . '/os-release');
        $cpu = $probe->cpu();
        $memory = $probe->memoryBytes();
        $os = $probe->os();
        array_map('unlink', glob($dir . '/*'));
        rmdir($dir);

        self::assertSame('Test CPU @ 3.00GHz', $cpu['model']);
        self::assertSame(2, $cpu['cores']);
        self::assertTrue($cpu['flags']['aes']);
        self::assertTrue($cpu['flags']['pclmulqdq']);
        self::assertTrue($cpu['flags']['avx2']);
        self::assertFalse($cpu['flags']['sha_ni']);
        self::assertSame(2048 * 1024, $memory);
        self::assertSame('Debian GNU/Linux 12 (bookworm)', $os);
    }

    public function testRecordsThePhpBuildAndLibraryVersions(): void
    {
        $probe = new EnvironmentProbe();
        self::assertSame(PHP_VERSION, $probe->php()['version']);
        self::assertSame('cli', $probe->php()['sapi']);
        self::assertSame(OPENSSL_VERSION_TEXT, $probe->libraries()['openssl']);
        self::assertSame(SODIUM_LIBRARY_VERSION, $probe->libraries()['sodium']);
        if (extension_loaded('mcrypt')) {
            // libmcrypt's last release line is 2.5; PHP's own version must not be mistaken for it.
            self::assertMatchesRegularExpression('/^2\.5\.\d+$/', (string) $probe->libraries()['mcrypt']);
        }
    }

    public function testTheFakeClockRecordsTwoCoresOnEveryMachineButTheRealModelAndFlags(): void
    {
        $real = (new EnvironmentProbe())->cpu();
        $fake = EnvironmentProbe::forFakeClock()->cpu();
        self::assertSame(EnvironmentProbe::FAKE_CLOCK_CORES, $fake['cores']);
        self::assertSame($real['model'], $fake['model']);
        self::assertSame($real['flags'], $fake['flags']);
    }
}
