<?php

declare(strict_types=1);

namespace PhpCryptoBench\Argon2;

/**
 * The fake clock for Argon2 cells: time passes as ModelledCellCost says, not as the machine does,
 * so that a fake run writes the same argon2.csv everywhere. The first sample of a cell still makes
 * a real hash (which the measurement verifies); later samples need not, since their cost is modelled.
 */
final class ModelledClock implements CellClock
{
    private int $now = 0;

    public function __construct(private readonly ModelledCellCost $cost = new ModelledCellCost())
    {
    }

    public function time(Argon2Cell $cell, int $sample, callable $hash): array
    {
        if ($sample === 0) {
            $hash();
        }
        $wall = $this->cost->wallNs($cell, $sample);
        $this->now += $wall;
        return ['wall_ns' => $wall, 'cpu_ns' => $this->cost->cpuNs($cell, $sample)];
    }

    public function warmUp(Argon2Cell $cell, callable $hash): void
    {
        // Nothing to warm: the timings are modelled, and the first timed sample makes the cell's one real hash.
    }

    public function now(): int
    {
        return $this->now;
    }

    public function hashMemoryKib(Argon2Cell $cell): int
    {
        return $this->cost->hashMemoryKib($cell);
    }
}
