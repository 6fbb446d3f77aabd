<?php

declare(strict_types=1);

namespace PhpCryptoBench\Argon2;

use PhpCryptoBench\Io\CsvTable;
use PhpCryptoBench\Native\UnsampledStep;

/**
 * A round's measurement of one Argon2 cell in its own process (CellRunner), for the comparison of
 * PHP's interfaces with the reference `argon2` CLI at equal parameters: each sample written with its
 * round and a sample number that runs on across rounds. A cell that fails is a gap.
 */
final class CellStep implements UnsampledStep
{
    private int $nextSample = 0;
    private ?string $gap = null;

    public function __construct(
        private readonly CellRunner $runner,
        public readonly Argon2Cell $cell,
        private readonly int $samples,
        private readonly CsvTable $table,
        /** What this host's hashes cost (the experiment's probe); null: the fixed estimate */
        private readonly ?HashCost $cost = null,
    ) {
    }

    public function label(): string
    {
        return sprintf('%s %s m=%d MiB t=%d p=%d', $this->cell->interface, $this->cell->variant, intdiv($this->cell->memoryKib, 1024), $this->cell->timeCost, $this->cell->threads);
    }

    public function estimatedSeconds(): float
    {
        // A 64 MiB, 3-pass hash takes about a tenth of a second on a 2-core VM; a process start more.
        return 0.05 + $this->samples * 0.1 * $this->cell->memoryKib / 65536 * $this->cell->timeCost / 3;
    }

    /** The cell's process, its untimed first hash and its samples, each verified: what the Sampler does not control. */
    public function fixedNs(): int
    {
        return $this->cost?->cellNs($this->cell, $this->samples) ?? (int) round($this->estimatedSeconds() * 1e9);
    }

    public function measure(int $round): void
    {
        $result = $this->runner->measure($this->cell, $this->samples, 0);
        if ($result['status'] !== 'ok' || $result['verified'] === false || $result['samples'] === []) {
            $this->gap = sprintf('%s: %s', $this->label(), $result['detail'] !== '' ? $result['detail'] : 'its hash did not verify');
            return;
        }
        foreach ($result['samples'] as $sample) {
            $this->table->add($this->cell->key() + [
                'round' => $round,
                'sample' => $this->nextSample++,
                'wall_ns' => $sample['wall_ns'],
                'cpu_ns' => $sample['cpu_ns'],
                'verified' => true,
            ]);
        }
    }

    public function gap(): ?string
    {
        return $this->gap;
    }
}
