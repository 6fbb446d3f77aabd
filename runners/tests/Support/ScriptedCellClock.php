<?php

declare(strict_types=1);

namespace PhpCryptoBench\Tests\Support;

use PhpCryptoBench\Argon2\Argon2Cell;
use PhpCryptoBench\Argon2\CellClock;

/** Hash number i takes the i-th wall time of a script (the last one again once it runs out). */
final class ScriptedCellClock implements CellClock
{
    private int $now = 0;
    private int $hashes = 0;

    /** @param non-empty-list<int> $wallNs */
    public function __construct(private readonly array $wallNs)
    {
    }

    public function time(Argon2Cell $cell, int $sample, callable $hash): array
    {
        $hash();
        $wall = $this->wallNs[min($this->hashes++, count($this->wallNs) - 1)];
        $this->now += $wall;
        return ['wall_ns' => $wall, 'cpu_ns' => $wall];
    }

    public function warmUp(Argon2Cell $cell, callable $hash): void
    {
        $hash(); // untimed: no scripted time is used
    }

    public function now(): int
    {
        return $this->now;
    }

    public function hashMemoryKib(Argon2Cell $cell): int
    {
        return 1;
    }
}
