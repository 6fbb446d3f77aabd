<?php

declare(strict_types=1);

namespace PhpCryptoBench\Harness;

/**
 * The fake clock's spread: timing number i of a case is its model moved by the i-th offset of a
 * fixed cycle (taken modulo its length). Real samples spread, and a page built from a fake run
 * must show confidence intervals that are not zero, yet the same command must write the same
 * bytes on every machine: so a cycle, never a random number.
 *
 * The cycle is a permutation of −2.4 % … +2.4 % in 0.8 % steps: any 7 consecutive timings of a case
 * (the quick profile's minimum samples) take each offset once, so their median is exactly the model,
 * and their CI (their range) is within the quick profile's ±3 % target, rounding included: a fake
 * quick case stops at 7 samples. Its order puts neighbouring samples apart, so that no run of
 * samples drifts one way.
 */
final class JitterCycle
{
    /** Per-mille offsets, in the order they are taken. */
    public const PER_MILLE = [0, 24, -16, 8, -24, 16, -8];
    /** No timing is further than this from its model, in per mille. */
    public const BOUND_PER_MILLE = 24;

    /** @param non-empty-list<int> $offsetsPerMille */
    public function __construct(private readonly array $offsetsPerMille = self::PER_MILLE)
    {
    }

    /** The model unmoved, for tests that need exact arithmetic. */
    public static function none(): self
    {
        return new self([0]);
    }

    public function offsetPerMille(int $index): int
    {
        return $this->offsetsPerMille[$index % count($this->offsetsPerMille)];
    }

    /** $modelNs moved by offset number $index, rounded down to whole nanoseconds. */
    public function apply(int $modelNs, int $index): int
    {
        return intdiv($modelNs * (1000 + $this->offsetPerMille($index)), 1000);
    }
}
