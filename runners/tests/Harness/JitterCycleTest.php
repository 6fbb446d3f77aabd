<?php

declare(strict_types=1);

namespace PhpCryptoBench\Tests\Harness;

use PhpCryptoBench\Harness\JitterCycle;
use PHPUnit\Framework\TestCase;

/** The fake clock's spread: fixed, bounded, and centred so that 7 samples have the model as median. */
final class JitterCycleTest extends TestCase
{
    public function testTheCycleIsPinned(): void
    {
        $jitter = new JitterCycle();
        self::assertSame([0, 24, -16, 8, -24, 16, -8, 0, 24], array_map($jitter->offsetPerMille(...), range(0, 8)));
        self::assertSame([1_000_000, 1_024_000, 984_000, 1_008_000, 976_000, 1_016_000, 992_000], array_map(static fn (int $i): int => $jitter->apply(1_000_000, $i), range(0, 6)));
        self::assertSame(1_004, $jitter->apply(1_029, 4), '1029 × 0.976 = 1004.3: rounded down to whole nanoseconds');
    }

    public function testAnySevenConsecutiveTimingsTakeEachOffsetOnceSoTheirMedianIsTheModel(): void
    {
        $jitter = new JitterCycle();
        for ($first = 0; $first < 7; $first++) {
            $offsets = array_map($jitter->offsetPerMille(...), range($first, $first + 6));
            sort($offsets);
            self::assertSame([-24, -16, -8, 0, 8, 16, 24], $offsets, "starting at timing $first");
        }
    }

    public function testNoTimingLeavesItsBoundAroundItsModel(): void
    {
        $jitter = new JitterCycle();
        foreach ([1, 999, 5_096, 123_456_789, 6_442_450_944_000] as $model) {
            for ($index = 0; $index < 50; $index++) {
                $timing = $jitter->apply($model, $index);
                self::assertGreaterThanOrEqual($model * (1000 - JitterCycle::BOUND_PER_MILLE) / 1000 - 1, $timing);
                self::assertLessThanOrEqual($model * (1000 + JitterCycle::BOUND_PER_MILLE) / 1000, $timing);
            }
        }
    }

    public function testNoneLeavesTheModelAlone(): void
    {
        self::assertSame([5_096, 5_096, 5_096], array_map(static fn (int $i): int => JitterCycle::none()->apply(5_096, $i), [0, 1, 2]));
    }
}
