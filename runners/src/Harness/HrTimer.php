<?php

declare(strict_types=1);

namespace PhpCryptoBench\Harness;

final class HrTimer implements Timer
{
    public function time(BenchCase $case, int $iterations): int
    {
        $start = hrtime(true);
        $case->run($iterations);
        return hrtime(true) - $start;
    }

    public function now(): int
    {
        return hrtime(true);
    }

    public function minorFaults(): int
    {
        return (int) getrusage()['ru_minflt'];
    }

    public function name(): string
    {
        return 'hrtime';
    }
}
