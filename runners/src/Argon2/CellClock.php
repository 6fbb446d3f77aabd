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

    /**
     * Runs $hash (one hash; its verification follows outside) untimed before the first sample: the
     * process's first hash maps its memory afresh. A modelled clock has nothing to warm and may skip it.
     *
     * @param callable(): void $hash
     */
    public function warmUp(Argon2Cell $cell, callable $hash): void;

    /** Nanoseconds on a monotonic clock: what the per-cell budget is counted in. */
    public function now(): int;

    /**
     * The resident memory one hash of the cell takes, in KiB: of the hashes run through time() and
     * warmUp(), the largest peak during a hash over what was resident just before it (for the CLI, which
     * hashes in a process of its own, that process's peak). Not the process's running maximum: what
     * it held before a hash, or took to verify one, is not counted.
     */
    public function hashMemoryKib(Argon2Cell $cell): int;
}
