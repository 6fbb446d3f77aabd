<?php

declare(strict_types=1);

namespace PhpCryptoBench\Tests\Environment;

use PhpCryptoBench\Environment\EnvironmentProbe;
use PhpCryptoBench\Environment\MachineIdentity;
use PhpCryptoBench\Environment\MachineName;
use PhpCryptoBench\Io\JsonFile;
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

    /** @return iterable<string, array{array<string, mixed>}> */
    public static function identities(): iterable
    {
        $fixture = JsonFile::read(__DIR__ . '/../../../tests/fixtures/machine-names.json');
        foreach ($fixture['cases'] as $case) {
            yield $case['case'] => [$case];
        }
    }

    /**
     * The build (scripts/phpcb/data/machines.py) derives these names too: tests/test_machine_identity.py
     * checks the same file, so a run the runner names and a run the build relabels get one name.
     *
     * @param array<string, mixed> $case
     * @dataProvider identities
     */
    #[DataProvider('identities')]
    public function testTheNameIsDerivedFromTheIdentityAlone(array $case): void
    {
        $flags = array_fill_keys($case['features'], true);
        $identity = MachineIdentity::of((string) $case['vendor_id'], $case['cpu_model'], $case['family'], $case['model'], $case['stepping'], $case['cores'], $flags, $case['virtual']);
        self::assertSame($case['name'], $identity->name($case['cpu_model'], $case['mhz'] === null ? null : (float) $case['mhz']));
        // The host is a level inside the machine, never part of its name.
        $a = MachineName::of($identity, 'machine-id:aaaa', $case['cpu_model'], $case['mhz'] === null ? null : (float) $case['mhz']);
        $b = MachineName::of($identity, 'machine-id:bbbb', $case['cpu_model'], $case['mhz'] === null ? null : (float) $case['mhz']);
        self::assertSame($a->name, $b->name);
        self::assertNotSame($a->hostHash, $b->hostHash);
    }

    public function testTheProbeReadsTheIdentityFromCpuinfoAndHashesTheMachineIdApart(): void
    {
        $dir = sys_get_temp_dir() . '/phpcb-machine-' . bin2hex(random_bytes(4));
        mkdir($dir);
        file_put_contents($dir . '/cpuinfo', "processor\t: 0\nvendor_id\t: AuthenticAMD\ncpu family\t: 25\nmodel\t\t: 1\nmodel name\t: AMD EPYC\nstepping\t: 1\n"
            . "cpu MHz\t\t: 2445.4\nflags\t\t: fpu aes vaes pclmulqdq vpclmulqdq avx2 sha_ni hypervisor\n\nprocessor\t: 1\n");
        file_put_contents($dir . '/machine-id', "0123456789abcdef\n");
        try {
            $machine = (new EnvironmentProbe(cpuinfoPath: $dir . '/cpuinfo', machineIdPath: $dir . '/machine-id'))->machine();
            // the fixture's family-25 case: same identity, same name
            self::assertSame('amd-epyc-zen3-2c-fb9e12', $machine->name);
            self::assertSame('recorded', $machine->toManifest()['identity_source']);
            self::assertSame(['aes', 'vaes', 'pclmulqdq', 'vpclmulqdq', 'avx2', 'sha_ni'], $machine->identity->features);
            self::assertSame(substr(hash('sha256', 'machine-id:0123456789abcdef'), 0, 6), $machine->hostHash);
            self::assertStringNotContainsString('0123456789abcdef', json_encode($machine->toManifest(), JSON_THROW_ON_ERROR));
        } finally {
            array_map('unlink', glob($dir . '/*') ?: []);
            rmdir($dir);
        }
    }

    public function testPhpcbHostIdOverridesTheMachineIdAndLeavesTheNameAlone(): void
    {
        $before = (new EnvironmentProbe(machineIdPath: '/nonexistent/machine-id'))->machine();
        putenv('PHPCB_HOST_ID=github-ubuntu-24.04-arm');
        try {
            $machine = (new EnvironmentProbe(machineIdPath: '/nonexistent/machine-id'))->machine();
            self::assertSame($before->name, $machine->name);
            self::assertSame(substr(hash('sha256', 'override:github-ubuntu-24.04-arm'), 0, 6), $machine->hostHash);
        } finally {
            putenv('PHPCB_HOST_ID');
        }
    }
}
