<?php

declare(strict_types=1);

namespace PhpCryptoBench\Harness;

use PhpCryptoBench\Exception\UsageError;

/** How hard to measure: samples per case, the minimum sample duration, the native tool's seconds. */
final class Profile
{
    private function __construct(
        public readonly string $name,
        public readonly int $samples,
        public readonly int $minSampleNs,
        public readonly int $maxIterations,
        public readonly int $nativeSeconds,
        public readonly int $slowCaseSamples,
        public readonly int $caseBudgetNs,
    ) {
    }

    /**
     * Samples for a case whose single sample takes $sampleNs: all of them, unless they would blow
     * the per-case budget, then as many as fit but never fewer than $slowCaseSamples.
     */
    public function samplesFor(int $sampleNs): int
    {
        if ($sampleNs * $this->samples <= $this->caseBudgetNs) {
            return $this->samples;
        }
        return max($this->slowCaseSamples, min($this->samples, intdiv($this->caseBudgetNs, max($sampleNs, 1))));
    }

    /**
     * A lower bound for $cases cases: warm-up and calibration take about four sample lengths,
     * and no sample is shorter than the minimum (slow cases take longer).
     */
    public function estimatedSeconds(int $cases): float
    {
        return $cases * ($this->samples + 4) * $this->minSampleNs / 1e9;
    }

    /**
     * For the fake clock: one iteration per sample. Calibrating against modelled time would run
     * slow ciphers hundreds of times for nothing; the numbers are deterministic either way.
     */
    public function forFakeClock(): self
    {
        return new self($this->name, $this->samples, 1, $this->maxIterations, $this->nativeSeconds, $this->slowCaseSamples, $this->caseBudgetNs);
    }

    public static function named(string $name): self
    {
        return match ($name) {
            // 7 samples, 6 at least for slow cases: 6 is the smallest count whose order-statistic
            // 95% CI of the median is finite.
            'quick' => new self('quick', 7, 10_000_000, 1_000_000, 1, 6, 2_000_000_000),
            'full' => new self('full', 25, 10_000_000, 10_000_000, 3, 20, 60_000_000_000),
            default => throw UsageError::invalidProfile($name),
        };
    }
}
