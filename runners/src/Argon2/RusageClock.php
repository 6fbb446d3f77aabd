<?php

declare(strict_types=1);

namespace PhpCryptoBench\Argon2;

/**
 * hrtime for wall time; getrusage for CPU time (this process and the children it waited for, since
 * the CLI hashes in a child) and for peak memory (ru_maxrss). This process is a child started per
 * cell, so its peak is the cell's.
 */
final class RusageClock implements CellClock
{
    private const SELF = 0;
    private const CHILDREN = 1;

    public function time(Argon2Cell $cell, int $sample, callable $hash): array
    {
        $cpu = self::cpuNs(self::SELF) + self::cpuNs(self::CHILDREN);
        $start = hrtime(true);
        $hash();
        $wall = hrtime(true) - $start;
        return ['wall_ns' => $wall, 'cpu_ns' => self::cpuNs(self::SELF) + self::cpuNs(self::CHILDREN) - $cpu];
    }

    public function warmUp(Argon2Cell $cell, callable $hash): void
    {
        $hash();
    }

    public function now(): int
    {
        return hrtime(true);
    }

    public function peakMemoryKib(Argon2Cell $cell): int
    {
        // The CLI allocates in its own process; password_hash and sodium in this one.
        return (int) getrusage($cell->interface === 'cli' ? self::CHILDREN : self::SELF)['ru_maxrss'];
    }

    private static function cpuNs(int $who): int
    {
        $usage = getrusage($who);
        return ($usage['ru_utime.tv_sec'] + $usage['ru_stime.tv_sec']) * 1_000_000_000
            + ($usage['ru_utime.tv_usec'] + $usage['ru_stime.tv_usec']) * 1_000;
    }
}
