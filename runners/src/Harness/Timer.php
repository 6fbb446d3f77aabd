<?php

declare(strict_types=1);

namespace PhpCryptoBench\Harness;

interface Timer
{
    /** Runs the case for $iterations and returns the elapsed nanoseconds. */
    public function time(BenchCase $case, int $iterations): int;

    /** Nanoseconds on this timer's monotonic clock: what time budgets are counted in. */
    public function now(): int;

    /** hrtime|fake, recorded in the manifest. */
    public function name(): string;
}
