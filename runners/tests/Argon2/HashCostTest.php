<?php

declare(strict_types=1);

namespace PhpCryptoBench\Tests\Argon2;

use PhpCryptoBench\Argon2\Argon2Cell;
use PhpCryptoBench\Argon2\HashCost;
use PHPUnit\Framework\TestCase;

final class HashCostTest extends TestCase
{
    public function testALaterPassIsWhatTheSecondPassAddedToAOnePassHash(): void
    {
        // At 64 MiB (65,536 KiB): one pass 65.536 ms (1,000 ns a KiB), two 101.5808 ms: 36.0448 ms more, 550 a KiB.
        self::assertEqualsWithDelta(550.0, HashCost::laterPass(65_536_000.0, 101_580_800.0, 64), 1e-9);
    }

    public function testAOnePassProbePreemptedPastTheTwoPassOneDoesNotMakeLaterPassesFree(): void
    {
        // One pass 65.536 ms, two 60 ms: a hundredth of the first, 655,360 ns, 10 a KiB.
        self::assertEqualsWithDelta(10.0, HashCost::laterPass(65_536_000.0, 60_000_000.0, 64), 1e-9);
    }

    public function testAHashIsItsFirstPassThenItsLaterOnesEachInterpolatedOnTheMemorysLogarithm(): void
    {
        // First pass 400 ns a KiB at 16 MiB and 1,000 at 64; a later pass 400 at 16 and 550 at 64.
        $cost = HashCost::of(400.0, 0, 1.0, false, 1_000.0, 400.0, 550.0);
        self::assertEqualsWithDelta(65_536 * (1_000 + 2 * 550), $cost->hashNs(Argon2Cell::of('password_hash', 'argon2id', 65_536, 1, 3)), 1.0, '137.6256 ms, not 196.608 as three first passes');
        // 32 MiB, halfway on the logarithm: first 700, later 475.
        self::assertEqualsWithDelta(700.0, $cost->nsPerKibPassAt(32_768), 1e-9);
        self::assertEqualsWithDelta(475.0, $cost->laterNsPerKibPassAt(32_768), 1e-9);
        self::assertEqualsWithDelta(32_768 * (700 + 3 * 475), $cost->hashNs(Argon2Cell::of('sodium', 'argon2id', 32_768, 1, 4)), 1.0);
        self::assertEqualsWithDelta(16_384 * 400, $cost->hashNs(Argon2Cell::of('password_hash', 'argon2id', 16_384, 1, 1)), 1.0, 'one pass: its first only');
        // Two threads share the passes, 1.2 times dearer than halved: (1,000 + 550) * 65,536 / 2 * 1.2.
        self::assertEqualsWithDelta(1_550 * 65_536 / 2 * 1.2, $cost->hashNs(Argon2Cell::of('password_hash', 'argon2id', 65_536, 2, 2)), 1.0);
    }

    public function testWithoutALaterPassProbeEveryPassCostsAsTheFirst(): void
    {
        $cost = HashCost::of(300.0, 0, 1.0, false, 900.0);
        self::assertEqualsWithDelta(900.0, $cost->laterNsPerKibPassAt(65_536), 1e-9);
        self::assertEqualsWithDelta(300.0, $cost->laterNsPerKibPassAt(16_384), 1e-9);
    }
}
