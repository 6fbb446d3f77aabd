<?php

declare(strict_types=1);

namespace PhpCryptoBench\Native;

use PhpCryptoBench\Harness\ExperimentBudget;
use PhpCryptoBench\Harness\Profile;
use PhpCryptoBench\Harness\Progress;

/**
 * Interleaves measurements that will be compared: round r takes every step once, in order (e.g.
 * `openssl speed rsa2048`, then PHP's openssl_sign, then the JWS layer), then round r + 1 does it
 * again. A drift of the machine (frequency, a neighbour's load) then reaches both sides of a
 * comparison in the same round, and the rounds give the comparison its confidence interval.
 * It uses the Sampler as it is: a PHP step is one Sampler::measure() per round. The steps the Sampler
 * does not time (UnsampledStep: `openssl speed`, an Argon2 cell process) are reserved in the
 * experiment's budget before its cases are sampled (reserve()), and released as they run.
 */
final class InterleavedRounds
{
    /**
     * Rounds per profile: 2, the fewest that pair the two sides at all (Student's t over the rounds, 1
     * degree of freedom: a finite CI, and a wide one), in the quick profile, whose `openssl speed`
     * seconds (on any host) must leave the slowest host of the VM pool time to sample within its
     * budget; the full profile takes 5, the one whose intervals the pages' readers are pointed to.
     */
    public const ROUNDS = ['quick' => 2, 'full' => 5];

    public function __construct(public readonly int $rounds)
    {
    }

    public static function forProfile(Profile $profile): self
    {
        return new self(self::ROUNDS[$profile->name] ?? self::ROUNDS['quick']);
    }

    /**
     * What the rounds of $steps take that the Sampler does not control: every round's unsampled steps.
     *
     * @param list<RoundStep> $steps
     */
    public function fixedNs(array $steps): int
    {
        $one = 0;
        foreach ($steps as $step) {
            $one += $step instanceof UnsampledStep ? $step->fixedNs() : 0;
        }
        return $this->rounds * $one;
    }

    /**
     * What `openssl speed` takes over these rounds for $primitives (each operation its seconds a round,
     * on any host): an experiment's fixed work before it has built its steps (FixedWork).
     *
     * @param list<NativePrimitive> $primitives
     */
    public function nativeNs(array $primitives): int
    {
        $operations = array_sum(array_map(static fn (NativePrimitive $primitive): int => count($primitive->operations), $primitives));
        return $this->rounds * $operations * OpensslSpeedCommand::ROUND_SECONDS * 1_000_000_000;
    }

    /**
     * Sets the rounds' unsampled time aside in $budget, before the experiment samples its cases.
     *
     * @param list<RoundStep> $steps
     */
    public function reserve(ExperimentBudget $budget, array $steps): void
    {
        $budget->reserve($this->fixedNs($steps));
    }

    /**
     * @param list<RoundStep> $steps
     * @param ExperimentBudget|null $budget where reserve() set the unsampled steps' time aside: released step by step
     * @return list<string> the gaps: steps that gave no result, and why
     */
    public function run(string $experiment, array $steps, Progress $progress, ?ExperimentBudget $budget = null): array
    {
        $estimate = $this->rounds * array_sum(array_map(static fn (RoundStep $step): float => $step->estimatedSeconds(), $steps));
        $progress->begin($experiment . ' (rounds vs native)', $this->rounds * count($steps), $estimate);
        for ($round = 0; $round < $this->rounds; $round++) {
            foreach ($steps as $step) {
                if ($step->gap() === null) {
                    $step->measure($round);
                }
                if ($budget !== null && $step instanceof UnsampledStep) {
                    $budget->release($step->fixedNs());
                }
                $progress->advance(sprintf('round %d/%d %s', $round + 1, $this->rounds, $step->label()));
            }
        }
        return array_values(array_filter(array_map(static fn (RoundStep $step): ?string => $step->gap(), $steps)));
    }
}
