<?php

declare(strict_types=1);

namespace PhpCryptoBench\Harness;

use PhpCryptoBench\Exception\UsageError;

/**
 * How hard to measure, and in how much time. A case takes at least $minSamples samples (as many as
 * fit in $caseCeilingNs when fewer do, never under $fewestSamples: Sampler::leastSamples), then more
 * until the 95% CI of its median is within ±$targetHalfWidth (MedianInterval), its group's share of
 * the experiment's budget runs out (ExperimentBudget, GroupRounds), it has spent $caseCeilingNs, or it
 * has $maxSamples. The run's $budgetNs is split among its experiments (RunBudget): a fixed time on any
 * host, not a fixed amount of work.
 */
final class Profile
{
    /**
     * The quick profile's minimum, and the fewest samples a case of the full profile takes when its 20
     * would not fit in its ceiling: with 7 the order-statistic CI of the median is the samples' range,
     * at 98.4 % (1 − 2/2⁷).
     */
    public const FEWEST_SAMPLES = 7;

    /**
     * The fewest samples with a 95 % CI of the median at all: with 6 it is still the samples' range, at
     * 96.9 % (1 − 2/2⁶); 5 give 93.8 %, no interval (MedianInterval). The fewest a slow case of the
     * quick profile takes, one whose 7 would not fit in its ceiling (a CFB1 cipher's 200 KiB round
     * trip, RSA-3072's key generation): its seventh sample is a whole operation of 0.3 s and more,
     * fixed work on any host, which the slowest host of the pool cannot spare.
     */
    public const FEWEST_WITH_AN_INTERVAL = 6;

    /**
     * The experiments' time of a quick run unless --budget-seconds says otherwise: 4.5 minutes. The
     * fixed work (`openssl speed` rounds, Argon2's least hashes, the slow cases' least samples) is the
     * same at any budget, so a minute more goes to sampling: on a family-25 host (model 17) of the
     * pool the Debian 13 stack reached 82.9 % of its cases within ±3 % in 3.5 minutes, its `pq` cases
     * 41 of 86 in about a second of sampling, and 94.0 % (`pq` 71 of 86) in 3:52 of 4.5 minutes.
     */
    public const QUICK_BUDGET_S = 270;

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
        /** The fewest samples a case takes when its minimum would not fit in its ceiling. */
        public readonly int $fewestSamples,
        /**
         * A case whose warm-up (one operation) lasts at least this long is not calibrated: one operation
         * a sample, its warm-up's time a sample's length (0: every case is calibrated). Its calibration
         * could only answer one operation, even were the warm-up ten times the steady time, and would
         * cost a whole operation more: in the quick profile that is 1 of 9 runs of every slow case
         * (RSA key generations, CFB1's 200 KiB round trips, 10 MiB AEADs), fixed work on any host.
         */
        public readonly int $uncalibratedFromNs,
        /**
         * Whether the experiments take the native tools beside PHP, `openssl speed` in their rounds
         * (InterleavedRounds) and the argon2 CLI (Argon2Experiment): false with --no-native, `make
         * report`'s, whose 6 minutes on the slowest host of the pool cannot spare their seconds (more than
         * a minute of a quick run on any host; `make bench` measures them).
         */
        public readonly bool $native = true,
    ) {
    }

    /** About how long $cases cases take (progress estimates). */
    public function estimatedSeconds(int $cases): float
    {
        return $cases * $this->caseAllowanceNs / 1e9;
    }

    /**
     * About what a case whose one operation takes $operationNs spends before the budget decides on
     * anything: a warm-up and a calibration run (the warm-up alone when it is not calibrated), then
     * its least samples, each at least a sample's minimum length (a case of fast operations is
     * calibrated to that, on any host; a slow one takes one operation a sample), no more than fit in
     * its ceiling (Sampler::leastSamples). An experiment projects its least work (FixedWork) from one
     * timed operation of its slow cases.
     */
    public function leastNs(float $operationNs): int
    {
        $sampleNs = max((float) $this->minSampleNs, $operationNs);
        $least = max($this->fewestSamples, min($this->minSamples, intdiv($this->caseCeilingNs, max(1, (int) $sampleNs))));
        $runsBefore = $this->calibrates((int) $operationNs) ? 2 : 1;
        return (int) round(($least + $runsBefore) * $sampleNs);
    }

    /** Whether a case whose warm-up took $warmUpNs is calibrated ($uncalibratedFromNs). */
    public function calibrates(int $warmUpNs): bool
    {
        return $this->uncalibratedFromNs === 0 || $warmUpNs < $this->uncalibratedFromNs;
    }

    /**
     * For the fake clock: one iteration per sample. Calibrating against modelled time would run
     * slow ciphers hundreds of times for nothing; the numbers are deterministic either way. Every
     * case is still calibrated: FakeTimer's warm-up and calibration take the first two offsets of its
     * jitter cycle, so that a quick case's 7 samples take each of the others once.
     */
    public function forFakeClock(): self
    {
        return new self($this->name, $this->minSamples, $this->maxSamples, $this->targetHalfWidth, 1, $this->maxIterations, $this->nativeSeconds, $this->caseAllowanceNs, $this->caseCeilingNs, $this->caseSliceNs, $this->budgetNs, $this->fewestSamples, 0, $this->native);
    }

    /** This profile with another budget (`--budget-seconds`): the same rules, another total time. */
    public function withBudgetNs(int $budgetNs): self
    {
        if ($budgetNs < 0) {
            throw UsageError::invalidBudget((string) ($budgetNs / 1e9));
        }
        return new self($this->name, $this->minSamples, $this->maxSamples, $this->targetHalfWidth, $this->minSampleNs, $this->maxIterations, $this->nativeSeconds, $this->caseAllowanceNs, $this->caseCeilingNs, $this->caseSliceNs, $budgetNs, $this->fewestSamples, $this->uncalibratedFromNs, $this->native);
    }

    /** This profile without the native tools (--no-native, $native): the same rules otherwise. */
    public function withoutNative(): self
    {
        return new self($this->name, $this->minSamples, $this->maxSamples, $this->targetHalfWidth, $this->minSampleNs, $this->maxIterations, $this->nativeSeconds, $this->caseAllowanceNs, $this->caseCeilingNs, $this->caseSliceNs, $this->budgetNs, $this->fewestSamples, $this->uncalibratedFromNs, false);
    }

    /**
     * This profile with its budget cut to what is left until $endsBy (seconds since the epoch) at $now,
     * when that is less: `make report` ends its experiments in time for its site whatever its setup took.
     */
    public function endingBy(int $endsBy, int $now): self
    {
        return $this->withBudgetNs(min($this->budgetNs, max(0, $endsBy - $now) * 1_000_000_000));
    }

    public static function named(string $name): self
    {
        return match ($name) {
            // At least FEWEST_SAMPLES (7) in quick and 20 in full (fewer when they would not fit in a
            // case's ceiling, never under 6 in quick nor 7 in full: Sampler::leastSamples). Samples of
            // 0.5 ms (1 ms): on a shared VM the speed changes in phases of 10 ms and more, and many
            // short samples put the median in the common phase
            // (docs/methodology.md#precision-and-noise). The quick profile does not calibrate a case
            // whose warm-up took 5 ms (ten samples' length) or more; the full one calibrates every
            // case, as before, its 90 minutes having the time. The budget: `make report`
            // (the quick profile) within 6 minutes on the slowest host of the 2-core VM pool, its
            // setup (1:30) and site (0:36) included; the full profile within 90 minutes. Of it, each case is
            // sure of 10 ms (50 ms) past its minimum samples: 20 (50) more of the cheap cases' samples.
            'quick' => new self('quick', self::FEWEST_SAMPLES, 200, 0.03, 500_000, 1_000_000, 1, 150_000_000, 2_000_000_000, 10_000_000, self::QUICK_BUDGET_S * 1_000_000_000, self::FEWEST_WITH_AN_INTERVAL, 10 * 500_000),
            'full' => new self('full', 20, 1_000, 0.01, 1_000_000, 10_000_000, 3, 800_000_000, 60_000_000_000, 50_000_000, self::FULL_BUDGET_S * 1_000_000_000, self::FEWEST_SAMPLES, 0),
            default => throw UsageError::invalidProfile($name),
        };
    }
}
