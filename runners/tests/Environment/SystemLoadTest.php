<?php

declare(strict_types=1);

namespace PhpCryptoBench\Tests\Environment;

use PhpCryptoBench\Environment\ModelledSystemLoad;
use PhpCryptoBench\Environment\ProcSystemLoad;
use PHPUnit\Framework\TestCase;

final class SystemLoadTest extends TestCase
{
    private string $dir;

    protected function setUp(): void
    {
        $this->dir = sys_get_temp_dir() . '/pcb-load-' . bin2hex(random_bytes(4));
        mkdir($this->dir . '/cpufreq', 0o777, true);
    }

    protected function tearDown(): void
    {
        array_map('unlink', [...glob($this->dir . '/cpufreq/*') ?: [], ...glob($this->dir . '/*.txt') ?: []]);
        rmdir($this->dir . '/cpufreq');
        rmdir($this->dir);
    }

    private function load(): ProcSystemLoad
    {
        return new ProcSystemLoad($this->dir . '/stat.txt', $this->dir . '/loadavg.txt', $this->dir . '/cpufreq', $this->dir . '/cpuinfo.txt');
    }

    public function testReadsTicksLoadGovernorAndFrequency(): void
    {
        // user nice system idle iowait irq softirq steal guest guest_nice: guest is already in user.
        file_put_contents($this->dir . '/stat.txt', "cpu  100 5 20 800 10 1 2 30 50 0\ncpu0 50 2 10 400 5 0 1 15 25 0\n");
        file_put_contents($this->dir . '/loadavg.txt', "1.25 0.80 0.40 2/300 12345\n");
        file_put_contents($this->dir . '/cpufreq/scaling_governor', "performance\n");
        file_put_contents($this->dir . '/cpufreq/scaling_cur_freq', "3400000\n");
        $snapshot = $this->load()->snapshot();
        self::assertGreaterThan(0, $snapshot['own_cpu_ns'], 'this process has used some CPU time');
        unset($snapshot['own_cpu_ns']);
        self::assertSame([
            'cpu_ticks' => ['total' => 968, 'idle' => 810, 'steal' => 30],
            'load_average' => [1.25, 0.8, 0.4],
            'governor' => 'performance',
            'frequency_mhz' => 3400.0,
        ], $snapshot);
    }

    public function testWithoutCpufreqTheClockComesFromCpuinfoAndWhatIsMissingIsNull(): void
    {
        file_put_contents($this->dir . '/cpuinfo.txt', "processor\t: 0\ncpu MHz\t\t: 2299.998\n\nprocessor\t: 1\ncpu MHz\t\t: 2300.002\n");
        $snapshot = $this->load()->snapshot();
        unset($snapshot['own_cpu_ns']);
        self::assertSame(['cpu_ticks' => null, 'load_average' => null, 'governor' => null, 'frequency_mhz' => 2300.0], $snapshot);
    }

    public function testTheModelledMachineMovesTheSameWayEveryTime(): void
    {
        $load = new ModelledSystemLoad();
        $first = $load->snapshot();
        $second = $load->snapshot();
        self::assertSame(['total' => 1000, 'idle' => 600, 'steal' => 5], $first['cpu_ticks']);
        self::assertSame(['total' => 2000, 'idle' => 1200, 'steal' => 10], $second['cpu_ticks']);
        self::assertSame([3_000_000_000, 6_000_000_000], [$first['own_cpu_ns'], $second['own_cpu_ns']]);
        self::assertSame((new ModelledSystemLoad())->snapshot(), $first);
    }
}
