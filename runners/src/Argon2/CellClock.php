<?php

declare(strict_types=1);

namespace PhpCryptoBench\Argon2;

/** The time and memory of one cell's hashes, measured in this process (or modelled, for tests). */
interface CellClock
{
    /**
     * Runs $hash for sample number $sample and returns its cost; a modelled clock may skip the work
     * after the first sample, whose hash is still made and verified.
     *
     * @param callable(): void $hash
     * @return array{wall_ns: int, cpu_ns: int}
     */
    public function time(Argon2Cell $cell, int $sample, callable $hash): array;

    /** Nanoseconds on a monotonic clock: what the per-cell budget is counted in. */
    public function now(): int;

    /** Peak resident memory of whatever did the hashing, in KiB. */
    public function peakMemoryKib(Argon2Cell $cell): int;
}
