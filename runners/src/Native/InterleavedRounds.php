<?php

declare(strict_types=1);

namespace PhpCryptoBench\Native;

use PhpCryptoBench\Harness\ExperimentBudget;
use PhpCryptoBench\Harness\Profile;
use PhpCryptoBench\Harness\Progress;
use PhpCryptoBench\Io\TableSet;

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

    /**
     * The gap a run without native tools (Profile::$native, --no-native) records, once per experiment that
     * has them: `openssl speed` in the rounds, the argon2 CLI in Argon2's grid and rounds.
     */
    public const NATIVE_LEFT_OUT = 'native tools left out (--no-native: make report leaves `openssl speed` and the argon2 CLI out, make bench measures them)';

    public function __construct(
        public readonly int $rounds,
        /** false: the NativeSteps are left out, each round takes the other steps */
        public readonly bool $native = true,
    ) {
    }

    public static function forProfile(Profile $profile): self
    {
        return new self(self::ROUNDS[$profile->name] ?? self::ROUNDS['quick'], $profile->native);
    }

    /**
     * What the rounds of $steps take that the Sampler does not control: every round's unsampled steps.
     *
     * @param list<RoundStep> $steps
     */
    public function fixedNs(array $steps): int
    {
        $one = 0;
        foreach ($this->taken($steps) as $step) {
            $one += $step instanceof UnsampledStep ? $step->fixedNs() : 0;
        }
        return $this->rounds * $one;
    }

    /**
     * What `openssl speed` takes over these rounds for $primitives (each operation its seconds a round,
     * on any host): an experiment's fixed work before it has built its steps (FixedWork).
     *
     * @param list<NativePrimitive> $primitives
     * @param string|null $toolVersion what `openssl version` prints; null: asks the `openssl` on PATH
     */
    public function nativeNs(array $primitives, ?string $toolVersion = null): int
    {
        if (!$this->native) {
            return 0;
        }
        $version = $toolVersion ?? (new OpensslSpeedCommand(OpensslSpeedCommand::ROUND_SECONDS))->toolVersion();
        $operations = array_sum(array_map(static fn (NativePrimitive $primitive): int => $primitive->speedOperations($version), $primitives));
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
        $taken = $this->taken($steps);
        $leftOut = count($taken) < count($steps) ? [self::NATIVE_LEFT_OUT] : [];
        $steps = $taken;
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
        return [...$leftOut, ...array_values(array_filter(array_map(static fn (RoundStep $step): ?string => $step->gap(), $steps)))];
    }

    /** $tables as the experiment writes them: without $nativeTable when the rounds leave the native tools out (`openssl speed`, the argon2 CLI). */
    public function written(TableSet $tables, string $nativeTable): TableSet
    {
        return $this->native ? $tables : $tables->without($nativeTable);
    }

    /**
     * The steps the rounds take: all of them, or all but the NativeSteps without native.
     *
     * @param list<RoundStep> $steps
     * @return list<RoundStep>
     */
    private function taken(array $steps): array
    {
        return $this->native ? $steps : array_values(array_filter($steps, static fn (RoundStep $step): bool => !$step instanceof NativeStep));
    }
}
