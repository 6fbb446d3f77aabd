<?php

declare(strict_types=1);

namespace PhpCryptoBench\Harness;

/**
 * The run's time (Profile::$budgetNs, `--budget-seconds`), shared among its experiments as they come:
 * each gets its cases' slices (Profile::$caseSliceNs, reserved first: each case's time past its
 * minimum samples whatever else happens) and what is left of the rest of the total in proportion to
 * its weight (its case count) among the experiments still to run. One that takes less than its share leaves the rest to those after it; one
 * that takes more (work its sampling does not control: verification, `openssl speed` rounds, Argon2's
 * cells, the minimum samples of slow cases) takes it from them. So the experiments end within the
 * budget unless that work alone exceeds it, on a fast host or a slow one.
 */
final class RunBudget
{
    private int $spentNs = 0;

    /**
     * @param array<string, int|float> $weights per experiment still to run (its cases; 0 for one that
     *                                          will not measure)
     */
    public function __construct(
        public readonly int $totalNs,
        private array $weights,
        int $spentNs = 0,
        /** reserved per case (per unit of weight) before the rest is shared */
        private readonly int $caseSliceNs = 0,
    ) {
        $this->spentNs = max(0, $spentNs);
    }

    /**
     * What experiment $name may spend: its cases' slices, and its weight's share of what is left
     * beyond the slices of every experiment still to run (nothing when that is spent).
     */
    public function forExperiment(string $name): int
    {
        $weight = (float) ($this->weights[$name] ?? 0);
        $all = (float) array_sum($this->weights);
        if ($weight <= 0.0 || $all <= 0.0) {
            return 0;
        }
        $beyondSlices = max(0.0, $this->leftNs() - $all * $this->caseSliceNs);
        return (int) floor($beyondSlices * ($weight / $all) + $weight * $this->caseSliceNs);
    }

    /** Experiment $name took $ns: it is no longer among those to come. */
    public function spent(string $name, int $ns): void
    {
        unset($this->weights[$name]);
        $this->spentNs += max(0, $ns);
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
