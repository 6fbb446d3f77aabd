<?php

declare(strict_types=1);

namespace PhpCryptoBench\Harness;

/**
 * About how many samples a case's distribution needs for the 95% CI of its median to be within a
 * target: the CI's half-width is about z / (2 f(m) √n) for the density f(m) at the median m, and
 * 1 / f(m) about twice the interquartile range (exact for a uniform, 7 % wide for a normal), so
 * n ≈ (z × IQR / (m × target))². The IQR, from the quartiles of all the samples (linear between order
 * statistics, as numpy's), is a steadier estimate at 7 samples than the CI then is: the range, which
 * one outlier widens, and which narrows faster than 1/√n as the ranks move in.
 *
 * From 7 samples it is a little optimistic (7 samples' quartiles sit inside the distribution's: for
 * log-normal noise it foresees about 0.6 of the samples the CI then takes, SamplesNeededTest), which is
 * the safe side: GroupRounds, which projects with it what a case still costs so that a short budget
 * goes to the cases it can bring within target, judges every case again after each round, whereas a
 * case stopped too early is lost.
 */
final class SamplesNeeded
{
    /** The standard normal's 97.5 % quantile: a 95 % interval is ±Z_95 standard errors. */
    public const Z_95 = 1.959963984540054;

    /**
     * @param list<float> $values at least one
     * @return float the samples needed in all (a whole number), INF without a positive median
     */
    public static function estimate(array $values, float $target): float
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
