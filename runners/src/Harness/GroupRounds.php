<?php

declare(strict_types=1);

namespace PhpCryptoBench\Harness;

/**
 * The state of one group sampled in rotation: each case's iteration count, its samples so far, the
 * time it has spent, and whether it goes on. A case that stops takes no more samples, so sample r of
 * every case is still round r.
 */
final class GroupRounds
{
    /** @var list<list<Sample>> */
    public array $samples;
    /** @var list<list<float>> each case's per-operation times, for its CI */
    public array $perOperation;
    /** @var list<bool> */
    private array $open;
    /** @var list<int> each case's samples' time, verification included (for the time its next ones take) */
    private array $sampledNs;
    /** @var list<bool> the cases stopped before their target because their time ran out */
    private array $outOfTime;
    /** @var list<int> what each case's samples past its least took: the time the budget decided on */
    private array $beyondLeastNs;

    /**
     * @param list<BenchCase> $cases
     * @param list<int> $iterations per case, calibrated
     * @param list<int> $leastSamples per case: it goes on until it has these, target and time or not
     * @param list<int> $spentNs per case, warm-up and calibration so far
     */
    public function __construct(
        public readonly array $cases,
        private readonly array $iterations,
        private readonly array $leastSamples,
        private array $spentNs,
    ) {
        $this->samples = array_fill(0, count($cases), []);
        $this->perOperation = array_fill(0, count($cases), []);
        $this->open = array_fill(0, count($cases), true);
        $this->sampledNs = array_fill(0, count($cases), 0);
        $this->outOfTime = array_fill(0, count($cases), false);
        $this->beyondLeastNs = array_fill(0, count($cases), 0);
    }

    public function anyOpen(): bool
    {
        return in_array(true, $this->open, true);
    }

    /**
     * One sample of each case still going, starting one case further each round, so no case is always
     * first (after the others' caches) or always last.
     *
     * @param \Closure(BenchCase, int): array{0: int, 1: int, 2: int} $time runs and verifies a case
     *        for that many iterations: the elapsed time it measured, the time the whole took, and the
     *        minor page faults the timed part took
     */
    public function round(int $round, \Closure $time): void
    {
        $count = count($this->cases);
        for ($step = 0; $step < $count; $step++) {
            $i = ($round + $step) % $count;
            if (!$this->open[$i]) {
                continue;
            }
            [$elapsed, $took, $faults] = $time($this->cases[$i], $this->iterations[$i]);
            if (count($this->samples[$i]) >= $this->leastSamples[$i]) {
                $this->beyondLeastNs[$i] += $took;
            }
            $this->spentNs[$i] += $took;
            $this->sampledNs[$i] += $took;
            $this->samples[$i][] = new Sample($round, $this->iterations[$i], $elapsed, $faults);
            $this->perOperation[$i][] = $elapsed / $this->iterations[$i];
        }
    }

    /**
     * After a round, stops the cases that are done, and says which:
     * - a case short of its least samples goes on, whatever its time (the floor);
     * - one whose CI is within the target stops;
     * - one that has spent the profile's ceiling per case stops, out of time;
     * - one whose next sample fits in its slice (what every case may spend past its least samples,
     *   reserved for it from the run's budget) goes on, whatever the group has left;
     * - the others go on as far as the group's budget goes, cheapest first: each one's projected cost
     *   to reach the target (the samples its distribution so far needs, SamplesNeeded, times its mean
     *   sample) must fit in what the budget has left after the floors' and slices' next samples and
     *   the cheaper ones' costs. Those that do not fit stop, out of time.
     * So the time goes where the noise is, to the cases it can bring within target, and a slow noisy
     * case (an RSA key generation) cannot take the time of the cheap ones; the next round fits in
     * the budget, but for the floors and one sample's noise.
     *
     * @param int $mostSamples the profile's maximum: no case is projected to take more
     * @param \Closure(list<float>): float $halfWidth the relative half-width of the CI of these per-operation times' median
     * @param int $caseSliceNs what each case may spend past its least samples whatever the group has left
     * @return list<int> the cases it stopped
     */
    public function stopThoseDone(int $budgetNs, int $caseCeilingNs, float $target, int $mostSamples, \Closure $halfWidth, int $caseSliceNs = 0): array
    {
        $left = $budgetNs - array_sum($this->spentNs);
        $stopped = [];
        $costs = [];
        foreach ($this->open as $i => $going) {
            if (!$going) {
                continue;
            }
            if (count($this->samples[$i]) < $this->leastSamples[$i]) {
                $left -= $this->meanSampleNs($i);
                continue;
            }
            $width = $halfWidth($this->perOperation[$i]);
            if ($width <= $target) {
                $stopped[] = $i;
                continue;
            }
            if ($this->spentNs[$i] >= $caseCeilingNs) {
                $this->outOfTime[$i] = true;
                $stopped[] = $i;
                continue;
            }
            if ($this->beyondLeastNs[$i] + $this->meanSampleNs($i) <= $caseSliceNs) {
                $left -= $this->meanSampleNs($i);
                continue;
            }
            $costs[$i] = $this->projectedCostNs($i, $target, $mostSamples);
        }
        asort($costs);
        foreach ($costs as $i => $cost) {
            if ($cost <= $left) {
                $left -= $cost;
                continue;
            }
            $this->outOfTime[$i] = true;
            $stopped[] = $i;
        }
        foreach ($stopped as $i) {
            $this->open[$i] = false;
        }
        sort($stopped);
        return $stopped;
    }

    /** Whether a case still going has fewer samples than it takes whatever its CI (its floor). */
    public function belowLeast(): bool
    {
        foreach ($this->open as $i => $going) {
            if ($going && count($this->samples[$i]) < $this->leastSamples[$i]) {
                return true;
            }
        }
        return false;
    }

    /** What the cases still going would take to reach the target, together (see projectedCostNs()). */
    public function openCostNs(float $target, int $mostSamples): float
    {
        $cost = 0.0;
        foreach (array_keys(array_filter($this->open)) as $i) {
            $cost += $this->projectedCostNs($i, $target, $mostSamples);
        }
        return $cost;
    }

    public function openCount(): int
    {
        return count(array_filter($this->open));
    }

    /** What the group's cases have spent, warm-up and calibration included. */
    public function spentNs(): int
    {
        return array_sum($this->spentNs);
    }

    /** @return list<int> the cases still going (when the rounds end at the profile's maximum) */
    public function stillOpen(): array
    {
        return array_keys(array_filter($this->open));
    }

    /** What the samples past the cases' least samples took (the rest, warm-up, calibration and the least samples, is the floor). */
    public function beyondLeastNs(): int
    {
        return array_sum($this->beyondLeastNs);
    }

    /** Whether case $i stopped short of its target because its time ran out. */
    public function ranOutOfTime(int $i): bool
    {
        return $this->outOfTime[$i];
    }

    /** What case $i's samples took on average, verification included. */
    private function meanSampleNs(int $i): float
    {
        $taken = count($this->samples[$i]);
        return $taken === 0 ? 0.0 : $this->sampledNs[$i] / $taken;
    }

    /**
     * What case $i would take to reach the target: the samples its distribution so far needs
     * (SamplesNeeded), no more than the profile's maximum, less those it has, at its
     * mean sample; at least one more.
     */
    private function projectedCostNs(int $i, float $target, int $mostSamples): float
    {
        $needed = min(SamplesNeeded::estimate($this->perOperation[$i], $target), (float) $mostSamples);
        return max(1.0, $needed - count($this->samples[$i])) * $this->meanSampleNs($i);
    }
}
