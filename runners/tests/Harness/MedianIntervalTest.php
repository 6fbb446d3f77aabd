<?php

declare(strict_types=1);

namespace PhpCryptoBench\Tests\Harness;

use PhpCryptoBench\Harness\MedianInterval;
use PHPUnit\Framework\TestCase;

/** The CI of the median as the build computes it (tests/test_precision_agreement.py checks against scipy). */
final class MedianIntervalTest extends TestCase
{
    public function testTheRanksAreTheBinomialTailsOfScipysQuantileTest(): void
    {
        // scipy.stats.quantile_test(..., p=0.5).confidence_interval(0.95): 0-based ranks low, n - 1 - low.
        self::assertSame([null, null, null, null, null, 0, 0, 0, 1, 1], array_map(MedianInterval::lowRank(...), range(1, 10)));
        self::assertSame(5, MedianInterval::lowRank(20));
        self::assertSame(7, MedianInterval::lowRank(25));
        self::assertSame(39, MedianInterval::lowRank(100));
        self::assertSame(468, MedianInterval::lowRank(1000));
    }

    public function testWithSevenSamplesTheIntervalIsTheirRange(): void
    {
        $interval = MedianInterval::of([5.0, 3.0, 4.0, 8.0, 6.0, 7.0, 2.0]);
        self::assertSame([5.0, 2.0, 8.0], [$interval->median, $interval->low, $interval->high]);
        self::assertSame(6.0 / 10.0, $interval->relativeHalfWidth());
    }

    public function testAnEvenCountHasTheMeanOfItsTwoMiddleValuesAsMedian(): void
    {
        self::assertSame(3.5, MedianInterval::of([1.0, 6.0, 3.0, 4.0, 2.0, 5.0])->median);
    }

    public function testBelowSixSamplesThereIsNoFiniteInterval(): void
    {
        $interval = MedianInterval::of([1.0, 2.0, 3.0, 4.0, 5.0]);
        self::assertSame([-INF, INF, INF], [$interval->low, $interval->high, $interval->relativeHalfWidth()]);
    }

    public function testFromNineSamplesTheBoundsAreTheSecondAndTheSecondToLast(): void
    {
        // lowRank(9) = 1: the bounds are x(1) and x(n - 2), not the range.
        $interval = MedianInterval::of([9.0, 1.0, 8.0, 2.0, 7.0, 3.0, 6.0, 4.0, 5.0]);
        self::assertSame([5.0, 2.0, 8.0], [$interval->median, $interval->low, $interval->high]);
    }

    public function testTheMedianOfFourAndOfNineValuesIsTheirMiddle(): void
    {
        self::assertSame(2.5, MedianInterval::of([4.0, 1.0, 3.0, 2.0])->median);
        self::assertSame(5.0, MedianInterval::of([1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0])->median);
    }

    public function testAMedianOfZeroHasNoRelativeWidth(): void
    {
        self::assertSame(INF, MedianInterval::of(array_fill(0, 7, 0.0))->relativeHalfWidth());
    }
}
