<?php

declare(strict_types=1);

namespace PhpCryptoBench\Harness;

use DateTimeImmutable;
use DateTimeZone;

final class SystemWallClock implements WallClock
{
    public function now(): DateTimeImmutable
    {
        return new DateTimeImmutable('now', new DateTimeZone('UTC'));
    }

    public function timestamp(): int
    {
        // No DateTimeImmutable: every JWT verification reads the clock.
        return time();
    }
}
