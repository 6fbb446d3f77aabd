<?php

declare(strict_types=1);

namespace PhpCryptoBench\Harness;

use PhpCryptoBench\Exception\InvalidInterleaving;

/**
 * Warm-up, calibration and sampling. Every timed run is verified before its sample counts.
 *
 * Sampling is adaptive: after the profile's minimum, a case takes more samples until the 95% CI of
 * its median is within the profile's target (MedianInterval, as the build computes it), or its
 * group's share of the experiment's time is spent (ExperimentBudget; GroupRounds keeps the cases it
 * can bring within target), or its ceiling, or it has the profile's maximum. Cases a page compares
 * are measured as one group, in rotation: round r takes one sample of each case still going,
 * starting one case further each round, so that a drift of the machine moves both sides of a ratio
 * alike, and sample r of one case can be paired with sample r of another.
 */
final class Sampler
{
    /** The operations of each sample of a case whose operation takes a random time by design (RandomTime). */
    public const RANDOM_TIME_OPERATIONS = 16;

    private SamplingTally $tally;
    private ExperimentBudget $budget;
    /** false while measuring a later round of cases already counted */
    private bool $counting = true;

    public function __construct(
        private readonly Timer $timer,
        private readonly Profile $profile,
        /** Told after each round of a group, to say a long one is still going; none in most tests. */
        private readonly ?Progress $progress = null,
    ) {
        $this->tally = $this->newTally();
        $this->budget = ExperimentBudget::unlimited($timer->now(), $profile->caseCeilingNs);
    }

    /**
     * A fresh tally: what measure() calls from now on count towards (one experiment's), and the time
     * they share: $budgetNs from $startedNs (now if null) among the $expectedCases the experiment says
     * it measures. Without a budget each case may take its ceiling.
     */
    public function beginExperiment(?int $budgetNs = null, int $expectedCases = 0, ?int $startedNs = null): void
    {
        $this->tally = $this->newTally();
        $started = $startedNs ?? $this->timer->now();
        $this->budget = $budgetNs === null
            ? ExperimentBudget::unlimited($started, $this->profile->caseCeilingNs)
            : ExperimentBudget::of($budgetNs, $started, $expectedCases, $this->profile->caseCeilingNs);
    }

    public function tally(): SamplingTally
    {
        return $this->tally;
    }

    /** The experiment's time: what it may spend, and what is left of it (for work besides sampling, e.g. Argon2's cells). */
    public function budget(): ExperimentBudget
    {
        return $this->budget;
    }

    /** What is left of the experiment's time now, on this sampler's clock, beside what it reserved (PHP_INT_MAX without a budget). */
    public function budgetLeftNs(): int
    {
        return $this->budget->unreservedNs($this->timer->now());
    }

    /**
     * @param int $minimumOperations operations all samples together must time at least (e.g. the
     *                               paper's 100 keys per curve); more iterations per sample if needed
     * @param bool $counted false: not a case of the experiment's tally (a later round of a case already counted)
     * @return list<Sample>
     */
    public function measure(BenchCase $case, int $minimumOperations = 0, bool $counted = true): array
    {
        return $this->countedIf($counted, fn (): array => $this->measureInterleaved([$case], null, $minimumOperations)[0]);
    }

    /**
     * One step of interleaved rounds (SampledStep): one case, or cases measured in rotation, sample r
     * of each taken in the same turn, which the manifest then says for $interleaving's table.
     *
     * @param list<BenchCase> $cases
     * @param Interleaving|null $interleaving null for a single case
     * @param bool $counted as in measure(): false for a later round of cases already counted
     * @return list<list<Sample>> each case's samples, in the order of $cases
     */
    public function measureRotation(array $cases, ?Interleaving $interleaving, bool $counted = true): array
    {
        return $this->countedIf($counted, fn (): array => $this->measureInterleaved($cases, $interleaving));
    }

    /**
     * @template T
     * @param \Closure(): T $measure
     * @return T
     */
    private function countedIf(bool $counted, \Closure $measure): mixed
    {
        if ($counted || !$this->counting) {
            return $measure();
        }
        $this->counting = false;
        try {
            return $measure();
        } finally {
            $this->counting = true;
        }
    }

    /**
     * Measures every case, in groups of the cases that share their values of the interleaving's
     * columns (CaseGroups), each group in rotation. For cases that are cheap to hold all at once.
     *
     * Within an experiment's budget, every group first takes its floor (its cases' least samples), and
     * then the rest of its rounds, the group whose cases still going cost least to bring within target
     * first: what a quiet group leaves goes to the noisy ones after it, wherever CaseGroups put them (a
     * group that came first had only its share of the cases' count, and stopped its noisy cases short
     * while the quiet groups after it left time unspent). Each group's rounds stay its own, numbered
     * on: sample r of its cases is still round r, the later rounds after a pause.
     *
     * @param list<BenchCase> $cases
     * @param (callable(BenchCase): void)|null $measured called for each case once its group is done (progress)
     * @param list<int> $minimumOperations per case (see measure()); 0 where not given
     * @param int $minimumSamples more samples than the profile's minimum, for a group whose ratio,
     *                            not each median, is the result (the harness overhead)
     * @return list<list<Sample>> each case's samples, in the order of $cases
     */
    public function measureGrouped(array $cases, Interleaving $interleaving, ?callable $measured = null, array $minimumOperations = [], int $minimumSamples = 0): array
    {
        $indexed = CaseGroups::of($cases, $interleaving->by);
        $floorsFirst = $this->budget->isLimited() && count($indexed) > 1;
        $groups = [];
        $counted = $this->tally->cases();
        foreach ($indexed as $indices) {
            $group = array_map(static fn (int $i): BenchCase => $cases[$i], $indices);
            $minimum = array_map(static fn (int $i): int => $minimumOperations[$i] ?? 0, $indices);
            $budget = $this->budget->forGroup($this->timer->now(), count($group), $counted, $this->counting);
            $sampled = $this->begun($group, $interleaving, $minimum, $minimumSamples, $measured);
            if ($floorsFirst) {
                $this->sampleFloor($sampled, $budget);
            } else {
                $this->sampleRest($sampled, $budget);
            }
            $groups[] = $sampled;
            $counted += $this->counting ? count($group) : 0;
        }
        if ($floorsFirst) {
            $this->sampleRestCheapestFirst($groups, $counted);
        }
        $samples = [];
        foreach ($groups as $g => $sampled) {
            foreach ($this->finished($sampled) as $position => $caseSamples) {
                $samples[$indexed[$g][$position]] = $caseSamples;
            }
        }
        ksort($samples);
        return array_values($samples);
    }

    /**
     * After every group's floor: each group's further rounds, those whose cases still going cost least
     * first, each with its share of what is left among the cases still going and those still to come.
     *
     * @param list<SampledGroup> $groups
     * @param int $counted the experiment's cases measured so far, these groups' included
     */
    private function sampleRestCheapestFirst(array $groups, int $counted): void
    {
        $target = $this->profile->targetHalfWidth;
        $costs = array_map(fn (SampledGroup $g): float => $g->rounds->openCostNs($target, $this->profile->maxSamples), $groups);
        asort($costs);
        $open = array_sum(array_map(static fn (SampledGroup $g): int => $g->rounds->openCount(), $groups));
        foreach (array_keys($costs) as $g) {
            $sampled = $groups[$g];
            $going = $sampled->rounds->openCount();
            $open -= $going;
            if ($going === 0) {
                continue;
            }
            $share = $this->budget->forOpenCases($this->timer->now(), $going, $open, $counted);
            $this->sampleRest($sampled, $sampled->rounds->spentNs() + $share);
        }
    }

    /**
     * One group whose cases hold large payloads, made only when measured: in rotation if all of
     * them fit in memory at once (MemoryLimit), else one after another, and then the build is told
     * not to pair this table's samples (SamplingTally::notInterleaved).
     *
     * @param list<\Closure(): BenchCase> $makers
     * @param int $bytesPerCase about what one case holds (its payload and outputs)
     * @param (callable(BenchCase): void)|null $measured called for each case as it stops (progress)
     * @return list<array{0: BenchCase, 1: list<Sample>}> each case with its samples, in the order of $makers
     */
    public function measureMade(array $makers, int $bytesPerCase, Interleaving $interleaving, ?callable $measured = null): array
    {
        if (MemoryLimit::allows(count($makers) * $bytesPerCase)) {
            $cases = array_map(static fn (\Closure $make): BenchCase => $make(), $makers);
            $samples = $this->measureInterleaved($cases, $interleaving, 0, 0, $measured);
            return array_map(null, $cases, $samples);
        }
        $this->tally->notInterleaved($interleaving);
        $done = [];
        foreach ($makers as $make) {
            $case = $make();
            $done[] = [$case, $this->measureInterleaved([$case], null, 0, 0, $measured)[0]];
        }
        return $done;
    }

    /**
     * Measures $cases in rotation: the cases a page compares, which share the interleaving's key
     * columns (e.g. operation and payload size). Sample index r of every case is round r.
     *
     * @param list<BenchCase> $cases
     * @param Interleaving|null $interleaving null for a single case, or cases a page does not pair
     * @param int|list<int> $minimumOperations for all cases, or per case (see measure())
     * @param int $minimumSamples see measureGrouped(); never past the profile's maximum
     * @param (callable(BenchCase): void)|null $measured called for each case as it stops (progress)
     * @return list<list<Sample>> each case's samples, in the order of $cases
     */
    public function measureInterleaved(array $cases, ?Interleaving $interleaving, int|array $minimumOperations = 0, int $minimumSamples = 0, ?callable $measured = null): array
    {
        $budget = $this->budget->forGroup($this->timer->now(), count($cases), $this->tally->cases(), $this->counting);
        $sampled = $this->begun($cases, $interleaving, $minimumOperations, $minimumSamples, $measured);
        $this->sampleRest($sampled, $budget);
        return $this->finished($sampled);
    }

    /**
     * A group checked, warmed up and calibrated, before its first round.
     *
     * @param list<BenchCase> $cases
     * @param int|list<int> $minimumOperations
     * @param (callable(BenchCase): void)|null $measured
     */
    private function begun(array $cases, ?Interleaving $interleaving, int|array $minimumOperations, int $minimumSamples, ?callable $measured): SampledGroup
    {
        $this->checkGroup($cases, $interleaving?->by ?? []);
        $started = $this->timer->now();
        $sampled = new SampledGroup($cases, $interleaving, $this->prepared($cases, $minimumOperations, $minimumSamples), $measured === null ? null : \Closure::fromCallable($measured));
        $sampled->tookNs += $this->timer->now() - $started;
        return $sampled;
    }

    /**
     * The group's rounds until each case still going has its least samples (a case past its own, of
     * long samples, is judged against $budgetNs meanwhile, as sampleRest() judges it); then the cases
     * within target, or at their ceiling, stop, and those short of it wait for their share.
     */
    private function sampleFloor(SampledGroup $sampled, int $budgetNs): void
    {
        $started = $this->timer->now();
        while ($sampled->nextRound < $this->profile->maxSamples && $sampled->rounds->belowLeast()) {
            $this->sampleRound($sampled);
            $this->stopThoseDone($sampled, $sampled->rounds->belowLeast() ? $budgetNs : PHP_INT_MAX);
        }
        $sampled->tookNs += $this->timer->now() - $started;
    }

    /**
     * The group's rounds until every case has stopped (GroupRounds::stopThoseDone, within $budgetNs of
     * what its cases spent from their warm-up on) or the profile's most samples; a group that took
     * rounds before is judged first.
     */
    private function sampleRest(SampledGroup $sampled, int $budgetNs): void
    {
        $started = $this->timer->now();
        if ($sampled->nextRound > 0) {
            $this->stopThoseDone($sampled, $budgetNs);
        }
        while ($sampled->nextRound < $this->profile->maxSamples && $sampled->rounds->anyOpen()) {
            $this->sampleRound($sampled);
            $this->stopThoseDone($sampled, $budgetNs);
        }
        $sampled->tookNs += $this->timer->now() - $started;
    }

    private function sampleRound(SampledGroup $sampled): void
    {
        $sampled->rounds->round($sampled->nextRound++, function (BenchCase $case, int $iterations): array {
            $before = $this->timer->now();
            $faultsBefore = $this->timer->minorFaults();
            $elapsed = $this->timer->time($case, $iterations);
            $faults = $this->timer->minorFaults() - $faultsBefore;
            $case->verifyLastRun();
            return [$elapsed, $this->timer->now() - $before, $faults];
        });
    }

    private function stopThoseDone(SampledGroup $sampled, int $budgetNs): void
    {
        $halfWidth = static fn (array $values): float => MedianInterval::of($values)->relativeHalfWidth();
        $profile = $this->profile;
        self::announce($sampled->measured, $sampled->cases, $sampled->rounds->stopThoseDone($budgetNs, $profile->caseCeilingNs, $profile->targetHalfWidth, $profile->maxSamples, $halfWidth, $profile->caseSliceNs));
        $this->progress?->stillSampling($sampled->rounds->openCount(), count($sampled->cases), $sampled->nextRound);
    }

    /**
     * The group's samples, its cases still going at the profile's most samples announced, and what it
     * achieved counted (unless it is a later round of cases counted before).
     *
     * @return list<list<Sample>> each case's samples, in the order of its cases
     */
    private function finished(SampledGroup $sampled): array
    {
        $group = $sampled->rounds;
        self::announce($sampled->measured, $sampled->cases, $group->stillOpen());
        $this->tally->spent($sampled->tookNs, $group->beyondLeastNs());
        if (!$this->counting) {
            return $group->samples;
        }
        foreach ($group->perOperation as $i => $values) {
            $this->tally->caseMeasured($this->withinTarget($values), $group->ranOutOfTime($i));
        }
        if ($sampled->interleaving !== null) {
            $by = $sampled->interleaving->by;
            $this->tally->groupInterleaved($sampled->interleaving, array_intersect_key($sampled->cases[0]->key(), array_flip($by)));
        }
        return $group->samples;
    }

    /**
     * Progress as it happens: a large group (every cipher OpenSSL offers) takes minutes.
     *
     * @param (\Closure(BenchCase): void)|null $measured
     * @param list<BenchCase> $cases
     * @param list<int> $done
     */
    private static function announce(?\Closure $measured, array $cases, array $done): void
    {
        foreach ($measured === null ? [] : $done as $i) {
            $measured($cases[$i]);
        }
    }

    /**
     * Each case warmed up and calibrated, one after the other, with the samples it must take.
     *
     * @param list<BenchCase> $cases
     * @param int|list<int> $minimumOperations
     */
    private function prepared(array $cases, int|array $minimumOperations, int $minimumSamples): GroupRounds
    {
        $iterations = [];
        $least = [];
        $spent = [];
        foreach ($cases as $i => $case) {
            $before = $this->timer->now();
            $warmUpNs = $this->timedAndVerified($case, 1); // warm-up: caches, lazy initialisation, first allocation
            $minimum = is_int($minimumOperations) ? $minimumOperations : ($minimumOperations[$i] ?? 0);
            if (self::takesRandomTime($case)) {
                [$calibrated, $calibratedNs] = [1, $warmUpNs];
                $iterations[$i] = self::RANDOM_TIME_OPERATIONS;
            } else {
                [$calibrated, $calibratedNs] = $this->profile->calibrates($warmUpNs) ? $this->calibration($case) : [1, $warmUpNs];
                $iterations[$i] = max($calibrated, (int) ceil($minimum / $this->profile->minSamples));
            }
            $sampleNs = intdiv($calibratedNs * $iterations[$i], $calibrated);
            $least[$i] = max($this->leastSamples($sampleNs, $minimumSamples), (int) ceil($minimum / $iterations[$i]));
            $spent[$i] = $this->timer->now() - $before;
        }
        return new GroupRounds($cases, $iterations, $least, $spent);
    }

    private static function takesRandomTime(BenchCase $case): bool
    {
        return $case instanceof RandomTime && $case->takesRandomTime();
    }

    /**
     * The samples a case takes whatever its CI: the profile's minimum, but no more than fit in the
     * per-case ceiling when one sample is long (des-ede3-cfb1's 2 MiB round trip takes 11 s: 20 of
     * them would be 4 minutes for one case), and never fewer than the profile's fewest
     * (Profile::$fewestSamples); a group's explicit minimum ($minimumSamples, the harness overhead's
     * rounds) always.
     */
    private function leastSamples(int $sampleNs, int $minimumSamples): int
    {
        $fitting = max($this->profile->fewestSamples, intdiv($this->profile->caseCeilingNs, max($sampleNs, 1)));
        return min(max(min($this->profile->minSamples, $fitting), $minimumSamples), $this->profile->maxSamples);
    }

    /**
     * Whether these per-operation times have the CI of their median within the profile's target.
     *
     * @param list<float> $perOperation
     */
    public function withinTarget(array $perOperation): bool
    {
        return MedianInterval::of($perOperation)->relativeHalfWidth() <= $this->profile->targetHalfWidth;
    }

    /**
     * The smallest iteration count (within the cap) whose run lasts at least the profile's minimum;
     * RANDOM_TIME_OPERATIONS for a case whose operation takes a random time by design (RandomTime).
     */
    public function calibrate(BenchCase $case): int
    {
        return self::takesRandomTime($case) ? self::RANDOM_TIME_OPERATIONS : $this->calibration($case)[0];
    }

    /**
     * @return array{0: int, 1: int} the iteration count, and how long its last run took (at the
     *         cap, the last run before it, scaled)
     */
    private function calibration(BenchCase $case): array
    {
        $target = $this->profile->minSampleNs;
        $iterations = 1;
        $elapsed = 0;
        $timedIterations = 1;
        while ($iterations < $this->profile->maxIterations) {
            $elapsed = $this->timedAndVerified($case, $iterations);
            $timedIterations = $iterations;
            if ($elapsed >= $target) {
                return [$iterations, $elapsed];
            }
            // Aim 10 % past the target so noise does not leave the next try just short of it.
            $predicted = (int) ceil($iterations * 1.1 * $target / max($elapsed, 1));
            $iterations = min($this->profile->maxIterations, max($iterations * 2, $predicted));
        }
        return [$iterations, intdiv($elapsed * $iterations, $timedIterations)];
    }

    /**
     * @param list<BenchCase> $cases
     * @param list<string> $by
     */
    private function checkGroup(array $cases, array $by): void
    {
        if ($cases === []) {
            throw InvalidInterleaving::noCases($by);
        }
        $first = $cases[0]->key();
        foreach ($cases as $case) {
            $key = $case->key();
            foreach ($by as $column) {
                if (!array_key_exists($column, $key) || !array_key_exists($column, $first) || $key[$column] !== $first[$column]) {
                    throw InvalidInterleaving::membersDisagree($column, $first, $key);
                }
            }
        }
    }

    private function timedAndVerified(BenchCase $case, int $iterations): int
    {
        $elapsed = $this->timer->time($case, $iterations);
        $case->verifyLastRun();
        return $elapsed;
    }

    private function newTally(): SamplingTally
    {
        return new SamplingTally($this->profile->targetHalfWidth, $this->profile->minSamples);
    }
}
