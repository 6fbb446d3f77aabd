<?php

declare(strict_types=1);

namespace PhpCryptoBench\Harness;

/**
 * Deterministic time for tests: the work still runs (and is verified), but the elapsed time is
 * modelled as iterations × (per-call cost + bytes × per-byte cost). The per-byte cost is scaled
 * by a factor of 1..4 taken from a hash of the case's algorithm (or cipher, or curve), so that pages built from a
 * fake run show differences, always the same ones.
 */
final class FakeTimer implements Timer
{
    public function __construct(
        private readonly int $nsPerCall = 1_000,
        private readonly int $psPerByte = 250,
    ) {
    }

    public function time(BenchCase $case, int $iterations): int
    {
        $case->run($iterations);
        return $iterations * $this->nsPerIteration($case);
    }

    public function nsPerIteration(BenchCase $case): int
    {
        $key = $case->key();
        $algorithm = (string) ($key['algorithm'] ?? $key['cipher'] ?? $key['curve'] ?? '');
        $factor = 1 + crc32($algorithm) % 4;
        return $this->nsPerCall + intdiv($case->bytesPerIteration() * $this->psPerByte * $factor, 1000);
    }

    public function name(): string
    {
        return 'fake';
    }
}
