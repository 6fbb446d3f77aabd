<?php

declare(strict_types=1);

namespace PhpCryptoBench\Argon2;

/**
 * Argon2's share of the run, over the work it does one item after another (each grid cell, the rounds
 * against the CLI, each bcrypt cost): every item to come is sure of its minimum (its least hashes, as
 * HashCost projects them) before any item gets more, and what is left beyond those minimums is shared
 * in proportion to each item's weight (its minimum: an expensive cell gets as many hashes past its
 * least as a cheap one, in proportion; 0 for work that takes what it takes), never past what the item
 * can use (its most: the profile's most hashes, or its ceiling). What an item cannot use goes to the
 * others by their weights: a cheap cell's part of the surplus was a tenth of a second, 9 hashes of a
 * 16 MiB cell and wide of its target, while the 64 MiB cells stopped at their ceiling and a third of
 * the experiment's share went unspent. The projections are corrected as items finish by what they
 * took against what was projected for what they did, so a host slower than the probe said leaves less
 * past the minimums, not more.
 */
final class CellShares
{
    /** A correction outside these bounds is a measuring accident, not the host. */
    private const CORRECTION_BOUNDS = [0.25, 4.0];

    private int $next = 0;
    private int $spentNs = 0;
    private float $actualNs = 0.0;
    private float $projectedNs = 0.0;

    /**
     * @param list<int> $minimumNs each item's projected minimum, in the order they run
     * @param list<float> $weights each item's part of what is left beyond the minimums
     * @param list<int|null> $mostNs each item's most it can use, projected as its minimum is (null: no bound)
     */
    private function __construct(
        private int $availableNs,
        private readonly array $minimumNs,
        private readonly array $weights,
        private readonly ?\Closure $leftNow,
        private readonly array $mostNs,
    ) {
    }

    /**
     * @param list<int> $minimumNs
     * @param list<float>|null $weights null: each item's minimum
     * @param (\Closure(): int)|null $leftNow what is left on the run's clock, read before each item
     *        (rebase()); null where only the items' own (modelled) times count
     * @param list<int|null>|null $mostNs each item's most it can use (null: no bound), never below its minimum
     */
    public static function of(int $availableNs, array $minimumNs, ?array $weights = null, ?\Closure $leftNow = null, ?array $mostNs = null): self
    {
        $minimumNs = array_values(array_map(static fn (int $ns): int => max(0, $ns), $minimumNs));
        $weights = array_values(array_map(static fn (float $w): float => max(0.0, $w), $weights ?? array_map('floatval', $minimumNs)));
        $mostNs = array_values($mostNs ?? array_fill(0, count($minimumNs), null));
        if (count($mostNs) !== count($minimumNs)) {
            throw new \InvalidArgumentException(sprintf('CellShares: %d items have a minimum, %d a most', count($minimumNs), count($mostNs)));
        }
        $mostNs = array_map(static fn (?int $most, int $least): ?int => $most === null ? null : max($least, $most), $mostNs, $minimumNs);
        return new self(max(0, $availableNs), $minimumNs, $weights, $leftNow, $mostNs);
    }

    /** What is left for the items to come is $leftNs (read from the run's clock): it replaces the count. */
    public function rebase(int $leftNs): void
    {
        $this->availableNs = $this->spentNs + max(0, $leftNs);
    }

    /** What the next item may spend: its minimum, as corrected, and its weight's part of the surplus. */
    public function forNext(): int
    {
        if ($this->leftNow !== null) {
            $this->rebase(($this->leftNow)());
        }
        $minimums = array_slice($this->minimumNs, $this->next);
        if ($minimums === []) {
            return 0;
        }
        $correction = $this->correction();
        $weights = array_slice($this->weights, $this->next);
        $room = array_map(
            static fn (int $least, ?int $most): float => $most === null ? INF : $correction * ($most - $least),
            $minimums,
            array_slice($this->mostNs, $this->next),
        );
        $surplus = max(0.0, $this->leftNs() - $correction * array_sum($minimums));
        $beyondLeast = $weights[0] > 0.0 ? min($room[0], $weights[0] * self::surplusPerWeight($surplus, $weights, $room)) : 0.0;
        return (int) floor($correction * $minimums[0] + $beyondLeast);
    }

    /**
     * The surplus per unit of weight when each item takes its weight's part, but no item more than its
     * room: what an item cannot take is shared among the others, in the order they fill (INF when
     * every item's room is less than its part).
     *
     * @param list<float> $weights
     * @param list<float> $room
     */
    private static function surplusPerWeight(float $surplus, array $weights, array $room): float
    {
        $fullAt = [];
        foreach ($weights as $i => $weight) {
            if ($weight > 0.0) {
                $fullAt[$i] = $room[$i] / $weight;
            }
        }
        asort($fullAt);
        $weightLeft = array_sum(array_intersect_key($weights, $fullAt));
        foreach ($fullAt as $i => $perWeight) {
            if ($surplus <= $perWeight * $weightLeft) {
                return $surplus / $weightLeft;
            }
            $surplus -= $room[$i];
            $weightLeft -= $weights[$i];
        }
        return INF;
    }

    /**
     * The next item is done: it took $actualNs, where $projectedNs was projected for what it did (its
     * minimum, or the hashes it took past it).
     */
    public function spent(int $actualNs, int $projectedNs): void
    {
        $this->next++;
        $this->spentNs += max(0, $actualNs);
        if ($projectedNs > 0 && $actualNs > 0) {
            $this->actualNs += $actualNs;
            $this->projectedNs += $projectedNs;
        }
    }

    /** What the items took over what was projected for them (1 before any finished). */
    public function correction(): float
    {
        if ($this->projectedNs <= 0.0) {
            return 1.0;
        }
        return min(self::CORRECTION_BOUNDS[1], max(self::CORRECTION_BOUNDS[0], $this->actualNs / $this->projectedNs));
    }

    public function leftNs(): int
    {
        return max(0, $this->availableNs - $this->spentNs);
    }

    /** What the items still to come are projected to need at least, as corrected. */
    public function minimumToComeNs(): int
    {
        return (int) ceil($this->correction() * array_sum(array_slice($this->minimumNs, $this->next)));
    }
}
