<?php

declare(strict_types=1);

namespace PhpCryptoBench\Tests\Support;

use PhpCryptoBench\Argon2\Argon2Cell;
use PhpCryptoBench\Argon2\CellClock;
use PhpCryptoBench\Argon2\CellHasher;
use PhpCryptoBench\Argon2\ModelledCellCost;

/**
 * Argon2 cells on the NoisyTimer's host: each hash costs what ModelledCellCost says (the reference
 * model) times the host's slowdown, moved by a seeded log-normal noise, on the run's clock. The first
 * hash of a cell, untimed, costs half as much again (it maps Argon2's memory afresh), and verifying a
 * hash costs a second hash (password_verify hashes again): both on the clock, neither in the sample,
 * as on a real host. As the hasher, it makes no real hash.
 */
final class NoisyCellClock implements CellClock, CellHasher
{
    private int $draws = 0;

    public function __construct(
        private readonly NoisyTimer $clock,
        private readonly float $sigma = 0.03,
        private readonly ModelledCellCost $cost = new ModelledCellCost(),
    ) {
    }

    public function time(Argon2Cell $cell, int $sample, callable $hash): array
    {
        $hash();
        $wall = (int) round($this->cost->modelNs($cell) * $this->clock->slowdown() * exp($this->sigma * $this->gaussian()));
        $this->clock->advance($wall);
        return ['wall_ns' => $wall, 'cpu_ns' => $wall];
    }

    public function warmUp(Argon2Cell $cell, callable $hash): void
    {
        $hash();
        $this->clock->advanceModelled((int) round(1.5 * $this->cost->modelNs($cell)));
    }

    public function now(): int
    {
        return $this->clock->now();
    }

    public function hashMemoryKib(Argon2Cell $cell): int
    {
        return $this->cost->hashMemoryKib($cell);
    }

    public function hash(Argon2Cell $cell): string
    {
        return 'modelled';
    }

    public function verify(Argon2Cell $cell, string $hash): ?bool
    {
        $this->clock->advanceModelled($this->cost->modelNs($cell));
        return true;
    }

    /** A standard normal draw (Box–Muller) from a stream of its own, seeded. */
    private function gaussian(): float
    {
        $uniform = function (): float {
            $bits = hexdec(substr(hash('sha256', 'cells:' . $this->draws++), 0, 13));
            return ($bits + 0.5) / 2 ** 52;
        };
        return sqrt(-2.0 * log($uniform())) * cos(2.0 * M_PI * $uniform());
    }
}
