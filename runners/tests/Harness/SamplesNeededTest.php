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
    public function testTheInterquartileReading(): void
    {
        // Quartiles 99.5 and 100.5 around a median of 100: (1.96 × 1 / (100 × 0.03))² = 0.43, so one
        // sample would do; a spread ten times as wide, (1.96 × 10 / 3)² = 42.7: 43.
        self::assertSame(1.0, SamplesNeeded::fromInterquartileRange([99.0, 99.5, 100.0, 100.5, 101.0], 0.03));
        self::assertSame(43.0, SamplesNeeded::fromInterquartileRange([110.0, 90.0, 100.0, 95.0, 105.0], 0.03), 'in any order');
        // Four values: quartiles at positions 0.75 and 2.25 (94.875 and 101.375), median 97.5: (1.96 × 6.5 / 2.925)² = 18.97.
        self::assertSame(19.0, SamplesNeeded::fromInterquartileRange([90.0, 96.5, 98.5, 110.0], 0.03));
        self::assertSame(INF, SamplesNeeded::fromInterquartileRange([0.0, 0.0, 0.0], 0.03), 'no positive median');
        self::assertSame(INF, SamplesNeeded::fromInterquartileRange([1.0, 2.0], 0.0));
    }

    public function testTheBandReading(): void
    {
        // A full range of 2 around a median of 100 is within ±3 % already: δ = ½, (1.96 / 1)² = 3.84.
        self::assertSame(4.0, SamplesNeeded::fromQuantileBand([99.0, 99.5, 100.0, 100.5, 101.0], 0.03));
        // 90 … 110 by 5, read as a spread: the quantiles at ½ ± δ are 100 ± 20δ (positions 2 ± 4δ),
        // within ±3 % of 100 up to δ = 0.15: (1.96 / 0.3)² = 42.7. Read as five states, the band stays
        // at 100 only up to δ = 0.1: 96. The more hopeful reading counts.
        self::assertSame(43.0, SamplesNeeded::fromQuantileBand([110.0, 90.0, 100.0, 95.0, 105.0], 0.03), 'in any order');
        // Four values, median 97.5: as a spread, the band is 2 + 18 (3δ − ½) wide past positions 1 and 2,
        // 5.85 (±3 % of 97.5) at δ = 0.238: 17 samples; as four states, it is 96.5 to 98.5 up to δ = ¼:
        // (1.96 / 0.5)² = 15.4.
        self::assertSame(16.0, SamplesNeeded::fromQuantileBand([90.0, 96.5, 98.5, 110.0], 0.03));
        // Five fast and two 1.85 times slower: as states the band stays in the fast cluster up to δ = 3/14.
        self::assertSame(21.0, SamplesNeeded::fromQuantileBand([100.0, 185.0, 101.0, 99.0, 186.0, 100.5, 99.5], 0.03));
        self::assertSame(INF, SamplesNeeded::fromQuantileBand([0.0, 0.0, 0.0], 0.03), 'no positive median');
        self::assertSame(INF, SamplesNeeded::fromQuantileBand([1.0, 2.0], 0.0));
    }

    public function testTheEstimateIsTheMoreHopefulReading(): void
    {
        self::assertSame(1.0, SamplesNeeded::estimate([99.0, 99.5, 100.0, 100.5, 101.0], 0.03), 'the quartiles\'');
        self::assertSame(16.0, SamplesNeeded::estimate([90.0, 96.5, 98.5, 110.0], 0.03), 'the band\'s');
        self::assertSame(21.0, SamplesNeeded::estimate([100.0, 185.0, 101.0, 99.0, 186.0, 100.5, 99.5], 0.03), 'the band\'s, where the quartiles say '.SamplesNeeded::fromInterquartileRange([100.0, 185.0, 101.0, 99.0, 186.0, 100.5, 99.5], 0.03));
    }

    public function testOnATwoStateMachineItForeseesTensOfSamplesWhereTheQuartilesForesawHundreds(): void
    {
        // The pool's family-25 hosts: a third of the time a neighbour makes every operation 1.85 times
        // slower; otherwise ±1 % of log-normal noise. The order-statistic CI reaches ±3 % once its ranks
        // stay in one cluster, after some 10 to 200 samples (31 seeds). From the first 7, the band of
        // quantiles foresees about 1.5 times what it takes; the interquartile range, whose upper
        // quartile is slow as soon as two of the seven are, foresees some 35 times as many, and
        // GroupRounds stopped such cases as out of time.
        [$byBand, $byQuartiles] = self::foreseenOverTaken(
            static function (int $seed): \Closure {
                mt_srand($seed);
                return static fn (): float => self::twoStateSample();
            },
            static fn (array $seven): float => SamplesNeeded::estimate($seven, 0.03),
            static fn (array $seven): float => SamplesNeeded::fromInterquartileRange($seven, 0.03),
        );
        self::assertCount(31, $byBand, 'every seed reached the target');
        self::assertGreaterThan(0.3, self::median($byBand), 'foreseen / taken');
        self::assertLessThan(3.0, self::median($byBand), 'foreseen / taken');
        self::assertGreaterThan(10.0, self::median($byQuartiles), 'the quartiles foresee ten times too many');
    }

    public function testFromSevenNoisySamplesItForeseesAboutWhatTheIntervalTakes(): void
    {
        // ±8 % of log-normal noise, 31 seeds: the order-statistic CI reaches ±3 % after some 45 samples.
        // From the first 7 the estimate says about 0.6 of that (7 samples' quartiles sit a little
        // inside the distribution's): optimistic, the safe side, as GroupRounds judges a case again
        // after every round and a case stopped too early is lost. The 1/√n extrapolation of their CI
        // (the range) says about twice as many: it would stop cases that would get there.
        [$estimated, $extrapolated] = self::foreseenOverTaken(
            static function (int $seed): \Closure {
                $timer = new NoisyTimer(['noisy' => 1_000_000], 0.08, 0.0, $seed);
                $case = new CountingCase(0, null, 'noisy');
                return static fn (): float => (float) $timer->time($case, 1);
            },
            static fn (array $seven): float => SamplesNeeded::estimate($seven, 0.03),
            static fn (array $seven): float => 7 * (MedianInterval::of($seven)->relativeHalfWidth() / 0.03) ** 2,
        );
        self::assertCount(31, $estimated, 'every seed reached the target');
        self::assertGreaterThan(0.4, self::median($estimated), 'foreseen / taken');
        self::assertLessThan(1.0, self::median($estimated), 'foreseen / taken');
        self::assertGreaterThan(1.6, self::median($extrapolated), 'the range says more than it takes');
    }

    /**
     * For 31 seeds: what each reading of a case's first 7 samples foresees over the samples the
     * order-statistic CI then took to reach ±3 %, one list per reading.
     *
     * @param \Closure(int): (\Closure(): float) $source a seed's stream of samples
     * @param \Closure(list<float>): float ...$readings samples needed, from the first 7
     * @return list<list<float>>
     */
    private static function foreseenOverTaken(\Closure $source, \Closure ...$readings): array
    {
        $ratios = array_fill(0, count($readings), []);
        foreach (range(1, 31) as $seed) {
            $next = $source($seed);
            $values = [];
            $atSeven = [];
            for ($n = 1; $n <= 2_000; $n++) {
                $values[] = $next();
                if ($n === 7) {
                    $atSeven = array_map(static fn (\Closure $reading): float => $reading($values), $readings);
                }
                if ($n >= 7 && MedianInterval::of($values)->relativeHalfWidth() <= 0.03) {
                    foreach ($atSeven as $i => $foreseen) {
                        $ratios[$i][] = $foreseen / $n;
                    }
                    break;
                }
            }
        }
        return $ratios;
    }

    private static function twoStateSample(): float
    {
        $uniform = static fn (): float => (mt_rand() + 1) / (mt_getrandmax() + 2);
        $jitter = exp(0.01 * sqrt(-2.0 * log($uniform())) * cos(2.0 * M_PI * $uniform()));
        return 1_000.0 * $jitter * ($uniform() < 1 / 3 ? 1.85 : 1.0);
    }

    /** @param list<float> $ratios */
    private static function median(array $ratios): float
    {
        sort($ratios);
        return $ratios[intdiv(count($ratios), 2)];
    }
}
