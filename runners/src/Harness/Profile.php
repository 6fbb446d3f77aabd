<?php

declare(strict_types=1);

namespace PhpCryptoBench\Harness;

use PhpCryptoBench\Exception\UsageError;

/**
 * How hard to measure, and in how much time. A case takes at least $minSamples samples (as many as
 * fit in $caseCeilingNs when fewer do, never under FEWEST_SAMPLES: Sampler::leastSamples), then more
 * until the 95% CI of its median is within ±$targetHalfWidth (MedianInterval), its group's share of
 * the experiment's budget runs out (ExperimentBudget, GroupRounds), it has spent $caseCeilingNs, or it
 * has $maxSamples. The run's $budgetNs is split among its experiments (RunBudget): a fixed time on any
 * host, not a fixed amount of work.
 */
final class Profile
{
    /**
     * The fewest samples any case takes: with 7 the order-statistic CI of the median is the samples'
     * range (6 is the fewest with a finite 95% CI at all).
     */
    public const FEWEST_SAMPLES = 7;

    /** The experiments' time of a quick run unless --budget-seconds says otherwise: 3.5 minutes. */
    public const QUICK_BUDGET_S = 210;

    /** The experiments' time of a full run unless --budget-seconds says otherwise: 90 minutes. */
    public const FULL_BUDGET_S = 5_400;

    private function __construct(
        public readonly string $name,
        public readonly int $minSamples,
        public readonly int $maxSamples,
        /** 0.03: stop once the CI's half-width is 3 % of the median */
        public readonly float $targetHalfWidth,
        public readonly int $minSampleNs,
        public readonly int $maxIterations,
        public readonly int $nativeSeconds,
        /** What a case takes on average on the 2-core VM of this project: the unit of progress estimates. */
        public readonly int $caseAllowanceNs,
        /** The most one case may take, whatever the budget has left. */
        public readonly int $caseCeilingNs,
        /**
         * What every case may spend on samples past its minimum whatever its group has left: reserved
         * from the budget before the experiments share the rest (RunBudget), so that on a loaded or
         * slow host, where the minimum samples of some cases and the experiments' fixed work take more
         * than their share, the cheap cases still get past a preempted sample or two (GroupRounds).
         */
        public readonly int $caseSliceNs,
        /**
         * The experiments' time in all, on the timer's clock (warm-up, calibration, samples, and what
         * the experiments do besides sampling: verification, `openssl speed` rounds, Argon2's cells).
         */
        public readonly int $budgetNs,
    ) {
    }

    /** About how long $cases cases take (progress estimates). */
    public function estimatedSeconds(int $cases): float
    {
        return $cases * $this->caseAllowanceNs / 1e9;
    }

    /**
     * About what a case whose one operation takes $operationNs spends before the budget decides on
     * anything: a warm-up and a calibration run, then its least samples, each at least a sample's
     * minimum length (a case of fast operations is calibrated to that, on any host; a slow one takes
     * one operation a sample), no more than fit in its ceiling (Sampler::leastSamples). An experiment
     * projects its least work (FixedWork) from one timed operation of its slow cases.
     */
    public function leastNs(float $operationNs): int
    {
        $sampleNs = max((float) $this->minSampleNs, $operationNs);
        $least = max(self::FEWEST_SAMPLES, min($this->minSamples, intdiv($this->caseCeilingNs, max(1, (int) $sampleNs))));
        return (int) round(($least + 2) * $sampleNs);
    }

    /**
     * For the fake clock: one iteration per sample. Calibrating against modelled time would run
     * slow ciphers hundreds of times for nothing; the numbers are deterministic either way.
     */
    public function forFakeClock(): self
    {
        return new self($this->name, $this->minSamples, $this->maxSamples, $this->targetHalfWidth, 1, $this->maxIterations, $this->nativeSeconds, $this->caseAllowanceNs, $this->caseCeilingNs, $this->caseSliceNs, $this->budgetNs);
    }

    /** This profile with another budget (`--budget-seconds`): the same rules, another total time. */
    public function withBudgetNs(int $budgetNs): self
    {
        if ($budgetNs < 0) {
            throw UsageError::invalidBudget((string) ($budgetNs / 1e9));
        }
        return new self($this->name, $this->minSamples, $this->maxSamples, $this->targetHalfWidth, $this->minSampleNs, $this->maxIterations, $this->nativeSeconds, $this->caseAllowanceNs, $this->caseCeilingNs, $this->caseSliceNs, $budgetNs);
    }

    public static function named(string $name): self
    {
        return match ($name) {
            // At least FEWEST_SAMPLES (7) in quick and 20 in full (fewer, never under 7, when 20 would
            // not fit in a case's ceiling: Sampler::leastSamples). Samples of 0.5 ms (1 ms): on a shared VM
            // the speed changes in phases of 10 ms and more, and many short samples put the median in
            // the common phase (docs/methodology.md#precision-and-noise). The budget: `make report`
            // (the quick profile) within 6 minutes on the slowest host of the 2-core VM pool, its
            // setup (1:30) and site (0:36) included; the full profile within 90 minutes. Of it, each case is
            // sure of 10 ms (50 ms) past its minimum samples: 20 (50) more of the cheap cases' samples.
            'quick' => new self('quick', self::FEWEST_SAMPLES, 200, 0.03, 500_000, 1_000_000, 1, 150_000_000, 2_000_000_000, 10_000_000, self::QUICK_BUDGET_S * 1_000_000_000),
            'full' => new self('full', 20, 1_000, 0.01, 1_000_000, 10_000_000, 3, 800_000_000, 60_000_000_000, 50_000_000, self::FULL_BUDGET_S * 1_000_000_000),
            default => throw UsageError::invalidProfile($name),
        };
    }
}
