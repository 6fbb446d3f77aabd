<?php

declare(strict_types=1);

namespace PhpCryptoBench\Harness;

use PhpCryptoBench\Exception\UsageError;

/**
 * How hard to measure. A case takes at least $minSamples samples (as many as fit in $caseCeilingNs
 * when fewer do, never under FEWEST_SAMPLES: Sampler::leastSamples), then more until the 95% CI of
 * its median is within ±$targetHalfWidth (MedianInterval), its group's time runs out (TimeBudget:
 * $caseAllowanceNs per case on average, never more than $caseCeilingNs) or it has $maxSamples.
 */
final class Profile
{
    /**
     * The fewest samples any case takes: with 7 the order-statistic CI of the median is the samples'
     * range (6 is the fewest with a finite 95% CI at all).
     */
    public const FEWEST_SAMPLES = 7;

    private function __construct(
        public readonly string $name,
        public readonly int $minSamples,
        public readonly int $maxSamples,
        /** 0.03: stop once the CI's half-width is 3 % of the median */
        public readonly float $targetHalfWidth,
        public readonly int $minSampleNs,
        public readonly int $maxIterations,
        public readonly int $nativeSeconds,
        /** What a case may spend on average (warm-up and calibration included); what quiet cases leave, noisy ones use. */
        public readonly int $caseAllowanceNs,
        /** The most one case may take, savings or not. */
        public readonly int $caseCeilingNs,
    ) {
    }

    public function timeBudget(): TimeBudget
    {
        return new TimeBudget($this->caseAllowanceNs, $this->caseCeilingNs);
    }

    /** About how long $cases cases take: each spends its allowance, some less, some the others' savings. */
    public function estimatedSeconds(int $cases): float
    {
        return $cases * $this->caseAllowanceNs / 1e9;
    }

    /**
     * For the fake clock: one iteration per sample. Calibrating against modelled time would run
     * slow ciphers hundreds of times for nothing; the numbers are deterministic either way.
     */
    public function forFakeClock(): self
    {
        return new self($this->name, $this->minSamples, $this->maxSamples, $this->targetHalfWidth, 1, $this->maxIterations, $this->nativeSeconds, $this->caseAllowanceNs, $this->caseCeilingNs);
    }

    public static function named(string $name): self
    {
        return match ($name) {
            // At least FEWEST_SAMPLES (7) in quick and 20 in full (fewer, never under 7, when 20 would
            // not fit in a case's ceiling: Sampler::leastSamples). Samples of 0.5 ms (1 ms): on a shared VM
            // the speed changes in phases of 10 ms and more, and many short samples put the median in
            // the common phase (docs/methodology.md#precision-and-noise). 150 ms (0.8 s) a case keeps
            // every experiment's quick profile under 5 minutes, and the full one under 90 (Argon2
            // included), on the 2-core VM.
            'quick' => new self('quick', self::FEWEST_SAMPLES, 200, 0.03, 500_000, 1_000_000, 1, 150_000_000, 2_000_000_000),
            'full' => new self('full', 20, 1_000, 0.01, 1_000_000, 10_000_000, 3, 800_000_000, 60_000_000_000),
            default => throw UsageError::invalidProfile($name),
        };
    }
}
