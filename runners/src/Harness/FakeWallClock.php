<?php

declare(strict_types=1);

namespace PhpCryptoBench\Harness;

use DateTimeImmutable;
use DateTimeZone;

/** Starts at a fixed instant and moves one second per reading: deterministic run ids and timestamps. */
final class FakeWallClock implements WallClock
{
    private int $readings = 0;

    public function __construct(private readonly string $start = '2026-01-01T00:00:00')
    {
    }

    public function now(): DateTimeImmutable
    {
        $instant = new DateTimeImmutable($this->start, new DateTimeZone('UTC'));
        return $instant->modify(sprintf('+%d seconds', $this->readings++));
    }

    public function timestamp(): int
    {
        return $this->now()->getTimestamp();
    }
}
