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
}
