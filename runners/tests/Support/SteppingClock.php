<?php

declare(strict_types=1);

namespace PhpCryptoBench\Tests\Support;

use PhpCryptoBench\Argon2\Argon2Cell;
use PhpCryptoBench\Argon2\CellClock;

/** Every hash takes exactly $wallNs of wall time (and twice that of CPU); the clock moves only then. */
final class SteppingClock implements CellClock
{
    private int $now = 1_000;

    public function __construct(private readonly int $wallNs)
    {
    }

    public function time(Argon2Cell $cell, int $sample, callable $hash): array
    {
        $hash();
        $this->now += $this->wallNs;
        return ['wall_ns' => $this->wallNs, 'cpu_ns' => 2 * $this->wallNs];
    }

    public function warmUp(Argon2Cell $cell, callable $hash): void
    {
        $hash(); // untimed: the clock does not move
    }

    public function now(): int
    {
        return $this->now;
    }

    public function hashMemoryKib(Argon2Cell $cell): int
    {
        return 4242;
    }
}
