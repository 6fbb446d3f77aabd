<?php

declare(strict_types=1);

namespace PhpCryptoBench\Harness;

use DateTimeImmutable;

interface WallClock
{
    public function now(): DateTimeImmutable;

    /** Seconds since the epoch, as now() would give them: what a JWT's exp and nbf are compared with. */
    public function timestamp(): int;
}
