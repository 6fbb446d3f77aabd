<?php

declare(strict_types=1);

namespace PhpCryptoBench\Harness;

/**
 * The rounds of a paired comparison that ran at the run's fastest, told by a probe: one more batch in each
 * round, timed apart from the sides compared. On a VM whose neighbours take the core's other half for
 * seconds at a time every call slows, PHP's parsing more than curve arithmetic, so an overhead over all
 * rounds mixes two overheads in the proportion the neighbour chose. Choosing rounds by the probe leaves
 * each pair's difference unbiased; choosing them by one side's own time would not (a batch that happened
 * to run fast would enlarge the very difference it was chosen for). The fastest is the run's: on a host
 * slowed from start to end it is the slowed speed, which the probe's own time shows.
 */
final class FastestRounds
{
    /** A round is among the fastest when its probe took at most this factor of the fastest tenth's. */
    public const FACTOR = 1.05;

    /** The fastest tenth, not the fastest probe: one lucky batch must not make every other round "slowed". */
    public const FASTEST = 0.1;

    /**
     * @param list<float> $probes each round's probe time, in round order
     * @return list<int> the fastest rounds' numbers, in round order; none for no probes
     */
    public static function of(array $probes): array
    {
        if ($probes === []) {
            return [];
        }
        $limit = self::FACTOR * self::fastestTenth($probes);
        return array_keys(array_filter($probes, static fn (float $probe): bool => $probe <= $limit));
    }

    /** @param non-empty-list<float> $probes */
    public static function fastestTenth(array $probes): float
    {
        sort($probes);
        return $probes[(int) floor(self::FASTEST * (count($probes) - 1))];
    }
}
