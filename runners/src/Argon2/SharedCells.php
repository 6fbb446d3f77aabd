<?php

declare(strict_types=1);

namespace PhpCryptoBench\Argon2;

/**
 * Argon2's cells measured one after another within the experiment's share (CellShares): each cell is
 * given its least hashes and its part of what is left past every cell's least, never more than the
 * profile's ceiling per cell, and the time it took is charged as it finishes, against what HashCost
 * projected for the hashes it took, so that the projections of the cells after it follow this host.
 */
final class SharedCells
{
    public function __construct(
        private readonly CellShares $shares,
        private readonly HashCost $cost,
        private readonly CellSampling $sampling,
    ) {
    }

    /**
     * @param \Closure(Argon2Cell, int, int, int, float): array{samples: list<array{wall_ns: int, cpu_ns: int}>, elapsed_ns?: int} $measure
     *        measures a cell: its least samples, its budget in ns (from its own start), its most samples, the target
     * @return array{samples: list<array{wall_ns: int, cpu_ns: int}>, elapsed_ns?: int} what $measure gave
     */
    public function measure(Argon2Cell $cell, \Closure $measure): array
    {
        // The cell counts from its own start: its process's start is not in its budget.
        $budgetNs = max(1, $this->sampling->ceiled($this->shares->forNext()) - $this->cost->processNs);
        $started = hrtime(true);
        $result = $measure($cell, $this->sampling->minSamples, $budgetNs, $this->sampling->maxSamples, CellSampling::TARGET);
        // Modelled (the fake clock): the cell's own clock, so a fake run stays the same everywhere.
        $took = $this->cost->modelled ? (int) ($result['elapsed_ns'] ?? 0) : hrtime(true) - $started;
        $this->shares->spent($took, $this->cost->cellNs($cell, max(1, count($result['samples']))));
        return $result;
    }

    /** A cell that is not measured (its interface refuses it) takes nothing. */
    public function skip(): void
    {
        $this->shares->spent(0, 0);
    }
}
