<?php

declare(strict_types=1);

namespace PhpCryptoBench\Argon2;

use PhpCryptoBench\Harness\JitterCycle;

/**
 * What an Argon2 cell costs under the fake clock: 1 µs per KiB-pass, shared by up to two threads
 * (so threads matter, but only up to the 2 cores the fake clock records), moved per sample by the
 * JitterCycle like every fake timing; CPU time is the wall time on each thread that runs; the memory
 * a hash takes is the cell's plus 300 KiB (about what a real password_hash adds to it: 1,284 KiB for
 * 1 MiB, 65,900 KiB for 64 MiB on amd-epyc). Plausible shapes, not measurements: they
 * exist so that the pipeline from runner to page can be tested with known numbers.
 */
final class ModelledCellCost
{
    public const NS_PER_KIB_PASS = 1_000;
    public const PARALLEL_THREADS = 2;
    public const HASH_OVERHEAD_KIB = 300;

    public function __construct(private readonly JitterCycle $jitter = new JitterCycle())
    {
    }

    /** The cell's wall time before the jitter: what a sample's median sits on. */
    public function modelNs(Argon2Cell $cell): int
    {
        return intdiv($cell->memoryKib * $cell->timeCost * self::NS_PER_KIB_PASS, $this->threadsAtWork($cell));
    }

    public function wallNs(Argon2Cell $cell, int $sample): int
    {
        return $this->jitter->apply($this->modelNs($cell), $sample);
    }

    public function cpuNs(Argon2Cell $cell, int $sample): int
    {
        return $this->wallNs($cell, $sample) * $this->threadsAtWork($cell);
    }

    public function hashMemoryKib(Argon2Cell $cell): int
    {
        return $cell->memoryKib + self::HASH_OVERHEAD_KIB;
    }

    private function threadsAtWork(Argon2Cell $cell): int
    {
        return min($cell->threads, self::PARALLEL_THREADS);
    }
}
