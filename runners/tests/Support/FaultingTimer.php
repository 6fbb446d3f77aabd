<?php

declare(strict_types=1);

namespace PhpCryptoBench\Tests\Support;

use PhpCryptoBench\Harness\BenchCase;
use PhpCryptoBench\Harness\FakeTimer;
use PhpCryptoBench\Harness\Timer;

/**
 * The fake clock with a page-fault counter a test drives: each timed iteration takes `perIteration`
 * faults, and anything else (a verification) may add its own with fault().
 */
final class FaultingTimer implements Timer
{
    private int $faults = 0;

    public function __construct(private readonly int $perIteration, private readonly FakeTimer $clock = new FakeTimer())
    {
    }

    public function time(BenchCase $case, int $iterations): int
    {
        $this->faults += $this->perIteration * $iterations;
        return $this->clock->time($case, $iterations);
    }

    public function fault(int $count): void
    {
        $this->faults += $count;
    }

    public function now(): int
    {
        return $this->clock->now();
    }

    public function minorFaults(): int
    {
        return $this->faults;
    }

    public function name(): string
    {
        return 'fake';
    }
}
