<?php

declare(strict_types=1);

namespace PhpCryptoBench\Harness;

/**
 * One experiment's time, from its start (verification included), and how its groups of cases share
 * it: a group gets what is left in proportion to its cases among the cases still to come (the
 * experiment's case count, less those measured), never more than the profile's ceiling per case. A
 * group that leaves time leaves it to the groups after it; one that overruns (the minimum samples of
 * slow cases) takes it from them; what the experiment does besides sampling (an `openssl speed`
 * round) is charged as it happens. A group measured again (a later round of cases already counted)
 * shares as if its cases were still to come. Work the experiment announces before it samples (its
 * `openssl speed` rounds, which take their seconds on any host; Argon2's rounds and bcrypt) is
 * reserved: the groups share what is left beside it, and the reservation is released as that work
 * runs and is charged as it happens.
 */
final class ExperimentBudget
{
    private int $reservedNs = 0;

    private function __construct(
        /** null: no budget, each case its ceiling (a Sampler outside a run: tests, tools) */
        public readonly ?int $budgetNs,
        public readonly int $startedNs,
        private readonly int $expectedCases,
        private readonly int $caseCeilingNs,
    ) {
    }

    /**
     * @param int $budgetNs what the experiment may spend from $startedNs, on the timer's clock
     * @param int $expectedCases the cases it says it measures (Experiment::caseCount); 0 when unknown
     */
    public static function of(int $budgetNs, int $startedNs, int $expectedCases, int $caseCeilingNs): self
    {
        return new self(max(0, $budgetNs), $startedNs, max(0, $expectedCases), $caseCeilingNs);
    }

    public static function unlimited(int $startedNs, int $caseCeilingNs): self
    {
        return new self(null, $startedNs, 0, $caseCeilingNs);
    }

    /** Nanoseconds left at $nowNs (PHP_INT_MAX without a budget). */
    public function leftNs(int $nowNs): int
    {
        return $this->budgetNs === null ? PHP_INT_MAX : max(0, $this->budgetNs - ($nowNs - $this->startedNs));
    }

    /** Sets $ns aside for work to come that the sampling does not control (released as it runs). */
    public function reserve(int $ns): void
    {
        $this->reservedNs += max(0, $ns);
    }

    /** That work ran (its time is on the clock now): $ns of the reservation is free again. */
    public function release(int $ns): void
    {
        $this->reservedNs = max(0, $this->reservedNs - max(0, $ns));
    }

    public function reservedNs(): int
    {
        return $this->reservedNs;
    }

    /** What is left at $nowNs beside the reservation: what the sampling may share (PHP_INT_MAX without a budget). */
    public function unreservedNs(int $nowNs): int
    {
        return $this->budgetNs === null ? PHP_INT_MAX : max(0, $this->leftNs($nowNs) - $this->reservedNs);
    }

    /**
     * What a group of $cases may spend from $nowNs, warm-up and calibration included.
     *
     * @param int $countedSoFar the experiment's cases measured before this group
     * @param bool $counted false: the group's cases were counted before (a later round)
     */
    public function forGroup(int $nowNs, int $cases, int $countedSoFar, bool $counted = true): int
    {
        $ceiling = $cases * $this->caseCeilingNs;
        if ($this->budgetNs === null) {
            return $ceiling;
        }
        $toCome = max(0, $this->expectedCases - $countedSoFar);
        $among = $counted ? max($toCome, $cases) : $toCome + $cases;
        return (int) min($ceiling, floor($this->unreservedNs($nowNs) * ($cases / $among)));
    }

    /**
     * What a group whose cases have all taken their least samples may spend from $nowNs on its $open cases
     * still going, when $openAfter cases of groups measured already go on after it (Sampler::measureGrouped
     * takes every group's floor first): its share of what is left among those and the cases still to come
     * (the experiment's case count, less the $countedSoFar measured, these groups' included).
     */
    public function forOpenCases(int $nowNs, int $open, int $openAfter, int $countedSoFar): int
    {
        $ceiling = $open * $this->caseCeilingNs;
        if ($this->budgetNs === null) {
            return $ceiling;
        }
        $among = max($open + $openAfter + max(0, $this->expectedCases - $countedSoFar), 1);
        return (int) min($ceiling, floor($this->unreservedNs($nowNs) * ($open / $among)));
    }

    /** Whether the experiment has a budget to share (a Sampler outside a run has none). */
    public function isLimited(): bool
    {
        return $this->budgetNs !== null;
    }
}
