<?php

declare(strict_types=1);

namespace PhpCryptoBench\Harness;

/**
 * Deterministic time for tests: the work still runs (and is verified), but the elapsed time is
 * modelled as iterations × (per-call cost + bytes × per-byte cost). The per-byte cost is scaled
 * by a factor of 1..4 taken from a hash of the case's algorithm (or cipher, or curve), so that pages built from a
 * fake run show differences, always the same ones.
 *
 * Each timing is then moved by a per-mille offset taken in turn from a fixed cycle, counted per
 * case: real samples spread, and a page built from a fake run must show confidence intervals
 * that are not zero. The cycle is a permutation of −3 % … +3 %, so any 7 consecutive timings of a
 * case (the quick profile's samples) have their median exactly at the model.
 */
final class FakeTimer implements Timer
{
    /** Per-mille offsets; their order spreads neighbouring samples apart. */
    public const JITTER = [0, 30, -20, 10, -30, 20, -10];

    /** @var array<string, int> timings so far, per case */
    private array $calls = [];

    /** @param list<int> $jitterPerMille offsets applied in turn; [0] for none */
    public function __construct(
        private readonly int $nsPerCall = 1_000,
        private readonly int $psPerByte = 250,
        private readonly array $jitterPerMille = self::JITTER,
    ) {
    }

    public function time(BenchCase $case, int $iterations): int
    {
        $case->run($iterations);
        $call = $this->calls[$id = $case::class . json_encode($case->key())] ?? 0;
        $this->calls[$id] = $call + 1;
        $offset = $this->jitterPerMille === [] ? 0 : $this->jitterPerMille[$call % count($this->jitterPerMille)];
        return intdiv($iterations * $this->nsPerIteration($case) * (1000 + $offset), 1000);
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
