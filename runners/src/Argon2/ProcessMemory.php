<?php

declare(strict_types=1);

namespace PhpCryptoBench\Argon2;

/**
 * This process's resident memory as Linux counts it in /proc/self/status: VmRSS now, and VmHWM, the
 * highest VmRSS since the process started (exec) or since its peak was last reset. Unlike getrusage's
 * ru_maxrss, VmHWM does not carry the resident size of the process this one was forked from: a cell
 * process started by a runner of 400 MiB reports ru_maxrss of 400 MiB before it hashes anything.
 */
final class ProcessMemory
{
    public function __construct(
        private readonly string $statusPath = '/proc/self/status',
        private readonly string $clearRefsPath = '/proc/self/clear_refs',
    ) {
    }

    /** Resident memory now, in KiB; null where /proc/self/status cannot be read (not Linux). */
    public function residentKib(): ?int
    {
        return $this->field('VmRSS');
    }

    /** The peak resident memory since the process started or since resetPeak(), in KiB; null as residentKib(). */
    public function peakKib(): ?int
    {
        return $this->field('VmHWM');
    }

    /**
     * Starts VmHWM afresh from the resident memory now (Linux 4.0 and later: "5" to clear_refs), so that
     * the peak that follows is of what comes after, not of what this process held before (a PHPUnit
     * process measuring in itself). False where the kernel does not let us; a fresh cell process has
     * held little before its first hash either way.
     */
    public function resetPeak(): bool
    {
        return @file_put_contents($this->clearRefsPath, '5') === 1;
    }

    private function field(string $name): ?int
    {
        $status = @file_get_contents($this->statusPath);
        if ($status === false || preg_match('/^' . $name . ':\s+(\d+) kB$/m', $status, $found) !== 1) {
            return null;
        }
        return (int) $found[1];
    }
}
