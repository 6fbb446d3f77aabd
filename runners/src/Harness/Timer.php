<?php

declare(strict_types=1);

namespace PhpCryptoBench\Harness;

interface Timer
{
    /** Runs the case for $iterations and returns the elapsed nanoseconds. */
    public function time(BenchCase $case, int $iterations): int;

    /** Nanoseconds on this timer's monotonic clock: what time budgets are counted in. */
    public function now(): int;

    /**
     * The minor page faults this process has taken so far, as this timer counts them: the kernel's
     * count for a real clock, none for a modelled one (its runs are the same on every machine).
     */
    public function minorFaults(): int;

    /** hrtime|fake, recorded in the manifest. */
    public function name(): string;
}
