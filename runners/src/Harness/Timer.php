<?php

declare(strict_types=1);

namespace PhpCryptoBench\Harness;

interface Timer
{
    /** Runs the case for $iterations and returns the elapsed nanoseconds. */
    public function time(BenchCase $case, int $iterations): int;

    /** hrtime|fake, recorded in the manifest. */
    public function name(): string;
}
