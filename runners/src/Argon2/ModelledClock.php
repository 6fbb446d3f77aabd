<?php

declare(strict_types=1);

namespace PhpCryptoBench\Argon2;

use PhpCryptoBench\Harness\FakeTimer;

/**
 * The fake clock for Argon2 cells, so that tests of the whole pipeline are deterministic: 1 µs per
 * KiB-pass, shared by up to two threads, moved per sample by the FakeTimer's jitter cycle; CPU time
 * is the wall time on each thread that runs; the peak memory is the cell's plus 20 000 KiB. The
 * first sample still makes (and the caller verifies) a real hash; later ones need not.
 */
final class ModelledClock implements CellClock
{
    private const NS_PER_KIB_PASS = 1_000;
    private const PARALLEL_THREADS = 2;
    private const PROCESS_KIB = 20_000;

    private int $now = 0;

    public function time(Argon2Cell $cell, int $sample, callable $hash): array
    {
        if ($sample === 0) {
            $hash();
        }
        $wall = $this->wallNs($cell, $sample);
        $this->now += $wall;
        return ['wall_ns' => $wall, 'cpu_ns' => $wall * min($cell->threads, self::PARALLEL_THREADS)];
    }

    public function wallNs(Argon2Cell $cell, int $sample): int
    {
        $model = intdiv($cell->memoryKib * $cell->timeCost * self::NS_PER_KIB_PASS, min($cell->threads, self::PARALLEL_THREADS));
        $offset = FakeTimer::JITTER[$sample % count(FakeTimer::JITTER)];
        return intdiv($model * (1000 + $offset), 1000);
    }

    public function now(): int
    {
        return $this->now;
    }

    public function peakMemoryKib(Argon2Cell $cell): int
    {
        return $cell->memoryKib + self::PROCESS_KIB;
    }
}
