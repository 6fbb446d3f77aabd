<?php

declare(strict_types=1);

namespace PhpCryptoBench\Tests\Environment;

use PhpCryptoBench\Environment\EnvironmentProbe;
use PhpCryptoBench\Environment\MachineName;
use PHPUnit\Framework\TestCase;
use PHPUnit\Framework\Attributes\DataProvider;

final class MachineNameTest extends TestCase
{
    /** @return iterable<string, array{string, string}> */
    public static function cpuModels(): iterable
    {
        yield 'Xeon with a clock' => ['Intel(R) Xeon(R) Processor @ 2.50GHz', 'intel-xeon-2-50ghz'];
        yield 'Xeon without' => ['Intel(R) Xeon(R) Processor', 'intel-xeon'];
        yield 'EPYC' => ['AMD EPYC 7B13 64-Core Processor', 'amd-epyc-7b13-64-core'];
        yield 'Core with CPU and TM' => ['Intel(R) Core(TM) i7-8700 CPU @ 3.20GHz', 'intel-core-i7-8700-3-20ghz'];
        yield 'Ryzen with graphics' => ['AMD Ryzen 7 5800U with Radeon Graphics', 'amd-ryzen-7-5800u'];
        yield 'arm, as uname names it' => ['aarch64', 'aarch64'];
        yield 'nothing left' => ['(R) Processor', 'cpu'];
        yield 'cut at 32 characters, no trailing dash' => [
            'Some Very Long Vendor Name Model Number 1234567890',
            'some-very-long-vendor-name-model',
        ];
    }

    /** @dataProvider cpuModels */
    #[DataProvider('cpuModels')]
    public function testTheCpuSlugKeepsWhatTellsCpusApart(string $model, string $slug): void
    {
        self::assertSame($slug, MachineName::cpuSlug($model));
    }

    public function testTwoHostsWithTheSameCpuGetDifferentNames(): void
    {
        $a = MachineName::of('AMD EPYC 7B13 64-Core Processor', 'machine-id:aaaa');
        $b = MachineName::of('AMD EPYC 7B13 64-Core Processor', 'machine-id:bbbb');
        self::assertNotSame($a->name, $b->name);
        self::assertStringStartsWith('amd-epyc-7b13-64-core-', $a->name);
        self::assertMatchesRegularExpression('/^[0-9a-f]{6}$/', $a->hostHash);
        self::assertSame($a->name, MachineName::of('AMD EPYC 7B13 64-Core Processor', 'machine-id:aaaa')->name);
    }

    public function testTheProbeHashesTheMachineIdNotTheHostname(): void
    {
        $dir = sys_get_temp_dir() . '/phpcb-machine-' . bin2hex(random_bytes(4));
        mkdir($dir);
        file_put_contents($dir . '/cpuinfo', "processor\t: 0\nmodel name\t: AMD EPYC 7B13 64-Core Processor\nflags\t: aes\n");
        file_put_contents($dir . '/machine-id', "0123456789abcdef\n");
        try {
            $probe = new EnvironmentProbe(cpuinfoPath: $dir . '/cpuinfo', machineIdPath: $dir . '/machine-id');
            $expected = MachineName::of('AMD EPYC 7B13 64-Core Processor', 'machine-id:0123456789abcdef');
            self::assertSame($expected->toManifest(), $probe->machine()->toManifest());
            self::assertStringNotContainsString('0123456789abcdef', json_encode($probe->machine()->toManifest(), JSON_THROW_ON_ERROR));
        } finally {
            array_map('unlink', glob($dir . '/*') ?: []);
            rmdir($dir);
        }
    }

    public function testPhpcbHostIdOverridesTheMachineId(): void
    {
        putenv('PHPCB_HOST_ID=github-ubuntu-24.04-arm');
        try {
            $probe = new EnvironmentProbe(machineIdPath: '/nonexistent/machine-id');
            $cpu = $probe->cpu()['model'];
            self::assertSame(MachineName::of($cpu, 'override:github-ubuntu-24.04-arm')->name, $probe->machine()->name);
        } finally {
            putenv('PHPCB_HOST_ID');
        }
    }
}
