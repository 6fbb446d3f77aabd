<?php

declare(strict_types=1);

namespace PhpCryptoBench\Harness;

/**
 * The run's time (Profile::$budgetNs, `--budget-seconds`), shared among its experiments as they come:
 * each gets its fixed work (FixedWork: its `openssl speed` rounds, Argon2's minimum hashes, reserved
 * first, for every experiment still to run), its cases' slices (Profile::$caseSliceNs, reserved first
 * too: each case's time past its minimum samples whatever else happens) and what is left of the rest
 * of the total in proportion to its weight (its case count, and its fixed work counted in cases:
 * Runner::weights) among the experiments still to run. One that takes less than its share leaves the rest to those after it; one
 * that takes more (work its sampling does not control: verification, `openssl speed` rounds, Argon2's
 * cells, the minimum samples of slow cases) takes it from them. So the experiments end within the
 * budget unless that work alone exceeds it, on a fast host or a slow one; when the fixed work projected
 * exceeds what is left, each gets that part of what is left (a projection too high on a loaded host
 * gives no experiment more than the budget holds).
 */
final class RunBudget
{
    private int $spentNs = 0;

    /**
     * @param array<string, int|float> $weights per experiment still to run (its cases; 0 for one that
     *                                          will not measure)
     * @param array<string, int> $fixedNs per experiment still to run: its fixed work (FixedWork),
     *                                    reserved before the rest is shared
     */
    public function __construct(
        public readonly int $totalNs,
        private array $weights,
        int $spentNs = 0,
        /** reserved per case (per unit of weight) before the rest is shared */
        private readonly int $caseSliceNs = 0,
        private array $fixedNs = [],
    ) {
        $this->spentNs = max(0, $spentNs);
    }

    /**
     * What experiment $name may spend: its fixed work, its cases' slices, and its weight's share of
     * what is left beyond the fixed work and slices of every experiment still to run (nothing when
     * that is spent).
     */
    public function forExperiment(string $name): int
    {
        $weight = (float) ($this->weights[$name] ?? 0);
        $all = (float) array_sum($this->weights);
        if ($weight <= 0.0 || $all <= 0.0) {
            return 0;
        }
        $fixed = $this->fixedToComeNs();
        $reservable = max(0.0, $this->leftNs() - $all * $this->caseSliceNs);
        $beyondReserved = max(0.0, $reservable - $fixed);
        // Fixed work past what is left is no share of it: each gets its part of what is left (its
        // least work then overruns by what it truly takes, no more).
        $own = ($this->fixedNs[$name] ?? 0) * ($fixed > $reservable ? $reservable / $fixed : 1.0);
        return (int) floor($beyondReserved * ($weight / $all) + $weight * $this->caseSliceNs + $own);
    }

    /** Experiment $name took $ns: it is no longer among those to come. */
    public function spent(string $name, int $ns): void
    {
        unset($this->weights[$name], $this->fixedNs[$name]);
        $this->spentNs += max(0, $ns);
    }

    /** What the experiments still to run have said their fixed work takes. */
    public function fixedToComeNs(): int
    {
        return array_sum(array_intersect_key($this->fixedNs, array_filter($this->weights)));
    }

    public function spentNs(): int
    {
        return $this->spentNs;
    }

    public function leftNs(): int
    {
        return max(0, $this->totalNs - $this->spentNs);
    }
}
