<?php

declare(strict_types=1);

namespace PhpCryptoBench\Harness;

/**
 * About how many samples a case's distribution needs for the 95% CI of its median to be within a
 * target, read from its samples so far two ways, the more hopeful counting:
 * - from the interquartile range, n ≈ (z × IQR / (median × target))²: steady from 7 samples where
 *   the noise is one cluster;
 * - from the band of quantiles the target allows: the CI runs between the order statistics at about
 *   the levels ½ ± z / (2√n) (MedianInterval's ranks, by the binomial's normal approximation), so the
 *   widest central band ½ ± δ whose quantiles are within the target says n ≈ (z / (2δ))², the samples
 *   read as a spread (linear between order statistics, as numpy's) and as states (the inverse of their
 *   empirical distribution, no value between two samples).
 *
 * The band is for the VM pool's two speeds: a third of the time or so a neighbour makes every
 * operation 1.85 times slower, in phases of a quarter second to seconds (measured on a family-25
 * host), and a case's samples form two clusters. Where fewer than half are slow, the median and its
 * CI settle in the fast cluster after some tens of samples; the interquartile range, whose upper
 * quartile is then slow, foresees some 35 times that, and GroupRounds stopped such cases as out of
 * time (SamplesNeededTest). From few samples of one cluster the band is the jumpier reading (a gap
 * beside the median widens it), which is why it does not count alone.
 *
 * From 7 samples it is a little optimistic (7 samples' quartiles sit inside the distribution's: for
 * log-normal noise it foresees about 0.6 of the samples the CI then takes), which is the safe side:
 * GroupRounds, which projects with it what a case still costs so that a short budget goes to the
 * cases it can bring within target, judges every case again after each round, whereas a case stopped
 * too early is lost.
 */
final class SamplesNeeded
{
    /** The standard normal's 97.5 % quantile: a 95 % interval is ±Z_95 standard errors. */
    public const Z_95 = 1.959963984540054;

    /** Bisection steps for the band: within 2^-24 of a level, far finer than a sample count needs. */
    private const BISECTIONS = 24;

    /**
     * The more hopeful of the two readings: the interquartile range's, steadier for one cluster of
     * noise; the band's, right where the speed has two states.
     *
     * @param list<float> $values at least one
     * @return float the samples needed in all (a whole number), INF without a positive median
     */
    public static function estimate(array $values, float $target): float
    {
        return min(self::fromInterquartileRange($values, $target), self::fromQuantileBand($values, $target));
    }

    /**
     * n ≈ (z × IQR / (median × target))²: the CI's half-width is about z / (2 f(m) √n) for the density
     * f(m) at the median m, and 1 / f(m) about twice the IQR (exact for a uniform, 7 % wide for a normal).
     *
     * @param list<float> $values at least one
     */
    public static function fromInterquartileRange(array $values, float $target): float
    {
        sort($values);
        $median = self::quantile($values, 0.5);
        if ($median <= 0.0 || $target <= 0.0) {
            return INF;
        }
        $iqr = self::quantile($values, 0.75) - self::quantile($values, 0.25);
        return ceil((self::Z_95 * $iqr / ($median * $target)) ** 2);
    }

    /**
     * n ≈ (z / (2δ))² for the widest central band of quantiles, ½ ± δ, that the target allows, the
     * samples read as a spread and as states, the more hopeful reading.
     *
     * @param list<float> $values at least one
     */
    public static function fromQuantileBand(array $values, float $target): float
    {
        sort($values);
        $median = self::quantile($values, 0.5);
        if ($median <= 0.0 || $target <= 0.0) {
            return INF;
        }
        $width = 2.0 * $median * $target;
        $halfBand = max(
            self::widestHalfBand(static fn (float $level): float => self::quantile($values, $level), $width),
            self::widestHalfBand(static fn (float $level): float => self::stepQuantile($values, $level), $width),
        );
        return $halfBand > 0.0 ? ceil((self::Z_95 / (2.0 * $halfBand)) ** 2) : INF;
    }

    /**
     * The largest δ ≤ ½ with quantile(½ + δ) − quantile(½ − δ) ≤ $width: the band's width never
     * shrinks as δ grows, so bisection finds it.
     *
     * @param \Closure(float): float $quantile of the sorted samples, at a level in [0, 1]
     */
    private static function widestHalfBand(\Closure $quantile, float $width): float
    {
        $fits = static fn (float $delta): bool => $quantile(0.5 + $delta) - $quantile(0.5 - $delta) <= $width;
        if ($fits(0.5)) {
            return 0.5;
        }
        $inside = 0.0;
        $outside = 0.5;
        for ($step = 0; $step < self::BISECTIONS; $step++) {
            $middle = ($inside + $outside) / 2.0;
            if ($fits($middle)) {
                $inside = $middle;
            } else {
                $outside = $middle;
            }
        }
        return $inside;
    }

    /**
     * The smallest sample whose share of the samples at or below it reaches $level (the inverse of
     * their empirical distribution): no value between two samples, as where the speed has states.
     *
     * @param list<float> $sorted
     */
    private static function stepQuantile(array $sorted, float $level): float
    {
        $count = count($sorted);
        return $sorted[max(0, min($count - 1, (int) ceil($level * $count) - 1))];
    }

    /**
     * The quantile at $level of sorted values, linear between order statistics (numpy's default).
     *
     * @param list<float> $sorted
     */
    private static function quantile(array $sorted, float $level): float
    {
        $position = $level * (count($sorted) - 1);
        $below = (int) floor($position);
        $above = min($below + 1, count($sorted) - 1);
        return $sorted[$below] + ($sorted[$above] - $sorted[$below]) * ($position - $below);
    }
}
