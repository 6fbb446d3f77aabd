<?php

declare(strict_types=1);

namespace PhpCryptoBench\Environment;

/**
 * What else the machine was doing: CPU time counters (/proc/stat: all, idle, and steal, the time a
 * hypervisor gave this VM's CPUs to others), load averages (/proc/loadavg), and the frequency
 * governor and clock (cpufreq, else /proc/cpuinfo's "cpu MHz") where the system lets us read them.
 * Read before and after each experiment and the run: the build turns two readings into the share
 * of CPU time stolen meanwhile and warns when it is high. Null where a file is missing or unreadable.
 */
final class ProcSystemLoad implements SystemLoad
{
    public function __construct(
        private readonly string $statPath = '/proc/stat',
        private readonly string $loadavgPath = '/proc/loadavg',
        private readonly string $cpufreqPath = '/sys/devices/system/cpu/cpu0/cpufreq',
        private readonly string $cpuinfoPath = '/proc/cpuinfo',
    ) {
    }

    public function snapshot(): array
    {
        return [
            'cpu_ticks' => $this->cpuTicks(),
            'own_cpu_ns' => self::ownCpuNs(),
            'load_average' => $this->loadAverage(),
            'governor' => $this->governor(),
            'frequency_mhz' => $this->frequencyMhz(),
        ];
    }

    /**
     * CPU time this process and the children it waited for (Argon2's cells) have used: what of the
     * machine's busy time is the run's own.
     */
    private static function ownCpuNs(): int
    {
        $total = 0;
        foreach ([0, 1] as $who) { // RUSAGE_SELF, RUSAGE_CHILDREN
            $usage = getrusage($who);
            $total += ($usage['ru_utime.tv_sec'] + $usage['ru_stime.tv_sec']) * 1_000_000_000
                + ($usage['ru_utime.tv_usec'] + $usage['ru_stime.tv_usec']) * 1_000;
        }
        return $total;
    }

    /** @return array{total: int, idle: int, steal: int}|null the first line of /proc/stat, summed across CPUs */
    private function cpuTicks(): ?array
    {
        $line = self::firstLine($this->statPath);
        if ($line === null || preg_match('/^cpu\s+(\d+(?:\s+\d+){7,})/', $line, $match) !== 1) {
            return null;
        }
        // user nice system idle iowait irq softirq steal [guest guest_nice]: guest time is already
        // counted in user and nice, so the total stops at steal.
        $fields = array_map('intval', preg_split('/\s+/', $match[1]) ?: []);
        return ['total' => array_sum(array_slice($fields, 0, 8)), 'idle' => $fields[3] + $fields[4], 'steal' => $fields[7]];
    }

    /** @return list<float>|null the 1, 5 and 15-minute load averages */
    private function loadAverage(): ?array
    {
        $line = self::firstLine($this->loadavgPath);
        if ($line === null || preg_match('/^([\d.]+)\s+([\d.]+)\s+([\d.]+)/', $line, $match) !== 1) {
            return null;
        }
        return [(float) $match[1], (float) $match[2], (float) $match[3]];
    }

    private function governor(): ?string
    {
        return self::firstLine($this->cpufreqPath . '/scaling_governor');
    }

    private function frequencyMhz(): ?float
    {
        $khz = self::firstLine($this->cpufreqPath . '/scaling_cur_freq');
        if ($khz !== null && is_numeric($khz)) {
            return round((float) $khz / 1000, 1);
        }
        $cpuinfo = is_readable($this->cpuinfoPath) ? (string) @file_get_contents($this->cpuinfoPath) : '';
        if (preg_match_all('/^cpu MHz\s*:\s*([\d.]+)/m', $cpuinfo, $matches) < 1) {
            return null;
        }
        // The mean over the CPUs: a VM reports its host's nominal clock here, a laptop the current one.
        return round(array_sum(array_map('floatval', $matches[1])) / count($matches[1]), 1);
    }

    private static function firstLine(string $path): ?string
    {
        if (!is_readable($path)) {
            return null;
        }
        $text = @file_get_contents($path, false, null, 0, 4096);
        $line = $text === false ? '' : trim(strtok($text, "\n") ?: '');
        return $line === '' ? null : $line;
    }
}
