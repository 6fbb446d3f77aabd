<?php

declare(strict_types=1);

namespace PhpCryptoBench\Harness;

use DateTimeImmutable;

interface WallClock
{
    public function now(): DateTimeImmutable;
}
