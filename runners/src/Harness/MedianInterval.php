<?php

declare(strict_types=1);

namespace PhpCryptoBench\Harness;

/**
 * The median of a case's per-operation times and its distribution-free 95% confidence interval,
 * computed exactly as the build computes them (scripts/phpcb/statistics/stats.py: numpy's median, the order
 * statistics of scipy.stats.quantile_test), so that the runner stops sampling on the same interval
 * the page will print. tests/test_precision_agreement.py runs both on the same samples.
 *
 * The bounds are the order statistics of ranks k − 1 and n − k (0-based), where k is the smallest
 * count with P(X ≤ k) ≥ 2.5 % for X ~ Binomial(n, 1/2): scipy's binom.ppf(0.025) − 1 and, by the
 * binomial's symmetry at p = 1/2, its binom.isf(0.025). Below n = 6 there is no such interval.
 */
final class MedianInterval
{
    public const CONFIDENCE = 0.95;

    /** @var array<int, int|null> the lower rank per sample count, computed once per count */
    private static array $lowRanks = [];

    private function __construct(
        public readonly float $median,
        public readonly float $low,
        public readonly float $high,
    ) {
    }

    /** @param list<float> $values at least one */
    public static function of(array $values): self
    {
        sort($values);
        $n = count($values);
        $low = self::lowRank($n);
        $median = self::median($values);
        if ($low === null) {
            return new self($median, -INF, INF);
        }
        return new self($median, $values[$low], $values[$n - 1 - $low]);
    }

    /**
     * The 0-based rank of the lower bound for $n samples at 95 %, or null when no finite interval
     * exists (n < 6). The upper bound's rank is n − 1 − this.
     */
    public static function lowRank(int $n): ?int
    {
        if (!array_key_exists($n, self::$lowRanks)) {
            self::$lowRanks[$n] = self::computeLowRank($n);
        }
        return self::$lowRanks[$n];
    }

    /**
     * Half the interval's width over the median: 0.03 is "±3 %". (high − low) / (2 × median), the
     * same operations in the same order as the build's, so both round alike. INF without a finite
     * interval.
     */
    public function relativeHalfWidth(): float
    {
        if (is_infinite($this->low) || is_infinite($this->high) || $this->median <= 0.0) {
            return INF;
        }
        return ($this->high - $this->low) / (2.0 * $this->median);
    }

    /** numpy.median: the middle value, or between the two middle values as numpy interpolates. */
    private static function median(array $sorted): float
    {
        $n = count($sorted);
        $middle = intdiv($n, 2);
        if ($n % 2 === 1) {
            return (float) $sorted[$middle];
        }
        // numpy's lerp at t = 0.5 takes b − (b − a) × 0.5, not a + (b − a) × 0.5: equal in exact
        // arithmetic, not always in floating point.
        $a = (float) $sorted[$middle - 1];
        $b = (float) $sorted[$middle];
        return $b - ($b - $a) * 0.5;
    }

    private static function computeLowRank(int $n): ?int
    {
        $tail = (1.0 - self::CONFIDENCE) / 2.0;
        // P(X = k) in logarithms, so that 0.5^n does not underflow before the tail is reached.
        $logPmf = $n * log(0.5);
        $cdf = 0.0;
        for ($k = 0; $k <= $n; $k++) {
            if ($k > 0) {
                $logPmf += log(($n - $k + 1) / $k);
            }
            $cdf += exp($logPmf);
            if ($cdf >= $tail) {
                return $k >= 1 ? $k - 1 : null;
            }
        }
        return null;
    }
}
