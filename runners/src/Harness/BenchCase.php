<?php

declare(strict_types=1);

namespace PhpCryptoBench\Harness;

use PhpCryptoBench\Exception\VerificationFailed;

/** One thing to time: run() does the work N times, verifyLastRun() proves its output was right. */
interface BenchCase
{
    /** @return array<string, int|string> the case's key columns in the CSV */
    public function key(): array;

    /** A short human label for progress lines. */
    public function label(): string;

    /** Bytes processed by one iteration, for throughput (and for the fake clock's cost model). */
    public function bytesPerIteration(): int;

    public function run(int $iterations): void;

    /** @throws VerificationFailed when the output of the last run() is wrong */
    public function verifyLastRun(): void;
}
