<?php

declare(strict_types=1);

namespace PhpCryptoBench\Native;

use PhpCryptoBench\Harness\Profile;
use PhpCryptoBench\Harness\Progress;

/**
 * Interleaves measurements that will be compared: round r takes every step once, in order (e.g.
 * `openssl speed rsa2048`, then PHP's openssl_sign, then the JWS layer), then round r + 1 does it
 * again. A drift of the machine (frequency, a neighbour's load) then reaches both sides of a
 * comparison in the same round, and the rounds give the comparison its confidence interval.
 * It uses the Sampler as it is: a PHP step is one Sampler::measure() per round.
 */
final class InterleavedRounds
{
    /**
     * Rounds per profile: 3 is the fewest whose paired CI (Student's t over the rounds, 2 degrees
     * of freedom) is finite and not absurd; the full profile takes 5.
     */
    public const ROUNDS = ['quick' => 3, 'full' => 5];

    public function __construct(public readonly int $rounds)
    {
    }

    public static function forProfile(Profile $profile): self
    {
        return new self(self::ROUNDS[$profile->name] ?? self::ROUNDS['quick']);
    }

    /**
     * @param list<RoundStep> $steps
     * @return list<string> the gaps: steps that gave no result, and why
     */
    public function run(string $experiment, array $steps, Progress $progress): array
    {
        $estimate = $this->rounds * array_sum(array_map(static fn (RoundStep $step): float => $step->estimatedSeconds(), $steps));
        $progress->begin($experiment . ' (rounds vs native)', $this->rounds * count($steps), $estimate);
        for ($round = 0; $round < $this->rounds; $round++) {
            foreach ($steps as $step) {
                if ($step->gap() === null) {
                    $step->measure($round);
                }
                $progress->advance(sprintf('round %d/%d %s', $round + 1, $this->rounds, $step->label()));
            }
        }
        return array_values(array_filter(array_map(static fn (RoundStep $step): ?string => $step->gap(), $steps)));
    }
}
