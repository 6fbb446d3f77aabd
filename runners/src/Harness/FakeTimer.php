<?php

declare(strict_types=1);

namespace PhpCryptoBench\Harness;

/**
 * Deterministic time for tests: the work still runs (and is verified), but the elapsed time is
 * modelled as iterations × (per-call cost + bytes × per-byte cost). The per-byte cost is scaled
 * by a factor of 1..4 taken from a hash of the case's algorithm (or cipher, or curve), so that
 * pages built from a fake run show differences, always the same ones.
 *
 * Each timing is then moved by the JitterCycle, counted per case (its class and key): the warm-up
 * and the calibration take the first two offsets, a quick profile's 7 samples the next 7, i.e.
 * each offset once, so their median is the model (and their CI, the whole cycle, is within the
 * quick profile's ±3 %: sampling stops there).
 *
 * Its clock (now()) is the modelled time so far: budgets are spent in fake time, the same on
 * every machine.
 */
final class FakeTimer implements Timer
{
    /** @var array<string, int> timings so far, per case */
    private array $calls = [];
    private int $nowNs = 0;

    public function __construct(
        private readonly int $nsPerCall = 1_000,
        private readonly int $psPerByte = 250,
        private readonly JitterCycle $jitter = new JitterCycle(),
    ) {
    }

    public function time(BenchCase $case, int $iterations): int
    {
        $case->run($iterations);
        $id = $case::class . json_encode($case->key());
        $call = $this->calls[$id] ?? 0;
        $this->calls[$id] = $call + 1;
        $elapsed = $this->jitter->apply($iterations * $this->nsPerIteration($case), $call);
        $this->nowNs += $elapsed;
        return $elapsed;
    }

    public function now(): int
    {
        return $this->nowNs;
    }

    /** The model of one iteration, before the jitter. */
    public function nsPerIteration(BenchCase $case): int
    {
        $key = $case->key();
        $algorithm = (string) ($key['algorithm'] ?? $key['cipher'] ?? $key['curve'] ?? '');
        $factor = 1 + crc32($algorithm) % 4;
        return $this->nsPerCall + intdiv($case->bytesPerIteration() * $this->psPerByte * $factor, 1000);
    }

    public function minorFaults(): int
    {
        return 0;
    }

    public function name(): string
    {
        return 'fake';
    }
}
