<?php

declare(strict_types=1);

namespace PhpCryptoBench\Tests\Argon2;

use PhpCryptoBench\Argon2\Argon2Cell;
use PhpCryptoBench\Argon2\ModelledCellCost;
use PhpCryptoBench\Harness\JitterCycle;
use PHPUnit\Framework\TestCase;

/** The fake clock's Argon2 numbers, pinned: the committed fixture run and the e2e tests rest on them. */
final class ModelledCellCostTest extends TestCase
{
    public function testFourThreadsShareTheWorkLikeTwoAndEachSampleTakesTheNextOffset(): void
    {
        $cost = new ModelledCellCost();
        $cell = Argon2Cell::of('password_hash', 'argon2id', 16384, 4, 3);
        // 16 384 KiB × 3 passes × 1 µs, over min(4, 2) threads
        self::assertSame(24_576_000, $cost->modelNs($cell));
        self::assertSame(
            [24_576_000, 25_165_824, 24_182_784, 24_772_608, 23_986_176, 24_969_216, 24_379_392],
            array_map(static fn (int $sample): int => $cost->wallNs($cell, $sample), range(0, 6)),
        );
        self::assertSame(2 * 25_165_824, $cost->cpuNs($cell, 1), 'CPU time: the wall time on each of the 2 threads at work');
        self::assertSame(16384 + 300, $cost->hashMemoryKib($cell), 'one hash\'s memory: the cell\'s and a little more');
    }

    public function testOneThreadSpendsItsWallTimeOnTheCpu(): void
    {
        $cost = new ModelledCellCost();
        $cell = Argon2Cell::of('cli', 'argon2d', 65536, 1, 1);
        self::assertSame(65_536_000, $cost->modelNs($cell));
        self::assertSame([65_536_000, 67_108_864], [$cost->wallNs($cell, 0), $cost->wallNs($cell, 1)]);
        self::assertSame($cost->wallNs($cell, 4), $cost->cpuNs($cell, 4));
        self::assertSame(65536 + 300, $cost->hashMemoryKib($cell));
    }

    public function testEverySampleStaysWithinTheCyclesBoundAndSevenSamplesCentreOnTheModel(): void
    {
        $cost = new ModelledCellCost();
        $cell = Argon2Cell::of('sodium', 'argon2i', 1024 * 1024, 1, 6);
        $model = $cost->modelNs($cell);
        $walls = array_map(static fn (int $sample): int => $cost->wallNs($cell, $sample), range(0, 6));
        foreach ($walls as $wall) {
            self::assertEqualsWithDelta($model, $wall, $model * JitterCycle::BOUND_PER_MILLE / 1000);
        }
        sort($walls);
        self::assertSame($model, $walls[3], 'seven samples: the median is the model');
    }

    public function testWithoutJitterEverySampleIsTheModel(): void
    {
        $cost = new ModelledCellCost(JitterCycle::none());
        $cell = Argon2Cell::of('password_hash', 'argon2i', 65536, 2, 3);
        self::assertSame([98_304_000, 98_304_000], [$cost->wallNs($cell, 0), $cost->wallNs($cell, 5)]);
    }
}
