<?php

declare(strict_types=1);

namespace PhpCryptoBench\Argon2;

/**
 * hrtime for wall time; getrusage for CPU time (this process and the children it waited for, since
 * the CLI hashes in a child). Memory per hash: password_hash and sodium hash in this process, so each
 * hash's memory is this process's peak resident memory during it (VmHWM, its peak reset just before
 * the hash) over what was resident just before it (VmRSS), and the cell's is the largest of these.
 * Not getrusage's ru_maxrss, the process's running maximum: a forked process starts with its
 * parent's resident size as its ru_maxrss (a cell started by a runner of 420 MiB reported 420.9 MiB
 * for a 64 MiB hash), and memory a verification left resident (glibc keeps freed blocks under 32 MiB)
 * would add to the next hash's. The CLI hashes in a process of its own per hash: its ru_maxrss
 * (RUSAGE_CHILDREN), which has that floor, the cell process's resident size when it started the CLI
 * (about 20 MiB, more after a verification that left memory resident).
 */
final class RusageClock implements CellClock
{
    private const SELF = 0;
    private const CHILDREN = 1;

    private int $hashMemoryKib = 0;
    private bool $measuredOne = false;

    public function __construct(private readonly ProcessMemory $memory = new ProcessMemory())
    {
    }

    public function time(Argon2Cell $cell, int $sample, callable $hash): array
    {
        return $this->counted($cell, function () use ($hash): array {
            $cpu = self::cpuNs(self::SELF) + self::cpuNs(self::CHILDREN);
            $start = hrtime(true);
            $hash();
            $wall = hrtime(true) - $start;
            return ['wall_ns' => $wall, 'cpu_ns' => self::cpuNs(self::SELF) + self::cpuNs(self::CHILDREN) - $cpu];
        });
    }

    public function warmUp(Argon2Cell $cell, callable $hash): void
    {
        $this->counted($cell, static function () use ($hash): array {
            $hash();
            return [];
        });
    }

    public function now(): int
    {
        return hrtime(true);
    }

    public function hashMemoryKib(Argon2Cell $cell): int
    {
        if ($cell->interface === 'cli') {
            return (int) getrusage(self::CHILDREN)['ru_maxrss'];
        }
        return $this->hashMemoryKib;
    }

    /**
     * Runs $work (one hash) and keeps the resident memory it took at its peak, where that can be told:
     * with the peak reset before it, any hash; without (no /proc, or a kernel before 4.0), the process's
     * first only, whose peak is its own (a fresh process holds no more before it than at its start).
     *
     * @template T
     * @param callable(): T $work
     * @return T
     */
    private function counted(Argon2Cell $cell, callable $work): mixed
    {
        if ($cell->interface === 'cli') {
            return $work();
        }
        $reset = $this->memory->resetPeak();
        $before = $this->memory->residentKib();
        $rusageBefore = (int) getrusage(self::SELF)['ru_maxrss'];
        $result = $work();
        if ($reset || !$this->measuredOne) {
            $peak = $this->memory->peakKib();
            $taken = $peak !== null && $before !== null
                ? $peak - $before
                // No /proc (not Linux): what the process's maximum grew by, which misses a hash smaller than what it held before.
                : (int) getrusage(self::SELF)['ru_maxrss'] - $rusageBefore;
            $this->hashMemoryKib = max($this->hashMemoryKib, $taken);
        }
        $this->measuredOne = true;
        return $result;
    }

    private static function cpuNs(int $who): int
    {
        $usage = getrusage($who);
        return ($usage['ru_utime.tv_sec'] + $usage['ru_stime.tv_sec']) * 1_000_000_000
            + ($usage['ru_utime.tv_usec'] + $usage['ru_stime.tv_usec']) * 1_000;
    }
}
