<?php

declare(strict_types=1);

namespace PhpCryptoBench\Tests\Harness;

use PhpCryptoBench\Harness\MedianInterval;
use PhpCryptoBench\Harness\SamplesNeeded;
use PhpCryptoBench\Tests\Support\CountingCase;
use PhpCryptoBench\Tests\Support\NoisyTimer;
use PHPUnit\Framework\TestCase;

final class SamplesNeededTest extends TestCase
{
    public function testTheSamplesACaseNeedsComeFromItsInterquartileRange(): void
    {
        // Quartiles 99.5 and 100.5 around a median of 100: (1.96 × 1 / (100 × 0.03))² = 0.43, so one
        // sample would do; a spread ten times as wide, (1.96 × 10 / 3)² = 42.7: 43.
        self::assertSame(1.0, SamplesNeeded::estimate([99.0, 99.5, 100.0, 100.5, 101.0], 0.03));
        self::assertSame(43.0, SamplesNeeded::estimate([110.0, 90.0, 100.0, 95.0, 105.0], 0.03), 'in any order');
        // Four values: quartiles at positions 0.75 and 2.25 (94.875 and 101.375), median 97.5: (1.96 × 6.5 / 2.925)² = 18.97.
        self::assertSame(19.0, SamplesNeeded::estimate([90.0, 96.5, 98.5, 110.0], 0.03));
        self::assertSame(INF, SamplesNeeded::estimate([0.0, 0.0, 0.0], 0.03), 'no positive median');
        self::assertSame(INF, SamplesNeeded::estimate([1.0, 2.0], 0.0));
    }

    public function testFromSevenNoisySamplesItForeseesAboutWhatTheIntervalTakes(): void
    {
        // ±8 % of log-normal noise, 31 seeds: the order-statistic CI reaches ±3 % after some 45 samples.
        // From the first 7 the estimate says about 0.6 of that (7 samples' quartiles sit a little
        // inside the distribution's): optimistic, the safe side, as GroupRounds judges a case again
        // after every round and a case stopped too early is lost. The 1/√n extrapolation of their CI
        // (the range) says about twice as many: it would stop cases that would get there.
        $estimated = [];
        $extrapolated = [];
        foreach (range(1, 31) as $seed) {
            $timer = new NoisyTimer(['noisy' => 1_000_000], 0.08, 0.0, $seed);
            $case = new CountingCase(0, null, 'noisy');
            $values = [];
            for ($n = 1; $n <= 1_000; $n++) {
                $values[] = (float) $timer->time($case, 1);
                if ($n === 7) {
                    $atSeven = SamplesNeeded::estimate($values, 0.03);
                    $byRange = 7 * (MedianInterval::of($values)->relativeHalfWidth() / 0.03) ** 2;
                }
                if ($n >= 7 && MedianInterval::of($values)->relativeHalfWidth() <= 0.03) {
                    $estimated[] = $atSeven / $n;
                    $extrapolated[] = $byRange / $n;
                    break;
                }
            }
        }
        $median = static function (array $ratios): float {
            sort($ratios);
            return $ratios[intdiv(count($ratios), 2)];
        };
        self::assertCount(31, $estimated, 'every seed reached the target');
        self::assertGreaterThan(0.4, $median($estimated), 'foreseen / taken');
        self::assertLessThan(1.0, $median($estimated), 'foreseen / taken');
        self::assertGreaterThan(1.6, $median($extrapolated), 'the range says more than it takes');
    }
}
