<?php

declare(strict_types=1);

namespace PhpCryptoBench\Harness;

/**
 * An allowance per case with savings, for work timed outside the Sampler (Argon2's cells,
 * CellSampling): every case is allowed the same time on average; one that reaches its precision
 * target early leaves the rest as savings, and a noisy one later may draw on them, up to
 * BORROW_FACTOR times its own allowance, never past the per-case ceiling. The Sampler's cases share
 * their experiment's budget instead (ExperimentBudget), which such work may read too
 * (Sampler::budget()->leftNs()).
 */
final class TimeBudget
{
    /** A group may take at most this many times its own allowance from the savings: one noisy group cannot take them all. */
    public const BORROW_FACTOR = 4;

    private int $savedNs = 0;

    public function __construct(
        private readonly int $allowanceNs,
        private readonly int $ceilingNs,
    ) {
    }

    /** Nanoseconds a group of $cases cases may spend, warm-up and calibration included. */
    public function forCases(int $cases): int
    {
        $own = $cases * $this->allowanceNs;
        $borrowed = min(max($this->savedNs, 0), $own * (self::BORROW_FACTOR - 1));
        return min($own + $borrowed, $cases * $this->ceilingNs);
    }

    /** What a group of $cases spent: below its allowance it saves, above (its minimum samples took longer) it owes. */
    public function spent(int $cases, int $ns): void
    {
        $this->savedNs += $cases * $this->allowanceNs - $ns;
    }

    public function savedNs(): int
    {
        return $this->savedNs;
    }
}
