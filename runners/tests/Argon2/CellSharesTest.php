<?php

declare(strict_types=1);

namespace PhpCryptoBench\Tests\Argon2;

use PhpCryptoBench\Argon2\Argon2Cell;
use PhpCryptoBench\Argon2\Argon2Verifiers;
use PhpCryptoBench\Argon2\CellShares;
use PhpCryptoBench\Argon2\HashCost;
use PHPUnit\Framework\TestCase;

final class CellSharesTest extends TestCase
{
    public function testEveryItemIsSureOfItsLeastBeforeAnyTakesMoreAndTheRestGoesByWeight(): void
    {
        // 1,000 for items of least 100, 300 and 100: 500 reserved, 500 shared 1 : 3 : 1.
        $shares = CellShares::of(1_000, [100, 300, 100]);
        self::assertSame(100 + 100, $shares->forNext());
        $shares->spent(200, 200);
        self::assertSame(300 + 300, $shares->forNext(), 'what is left past the least of the two to come, three quarters of it');
        $shares->spent(600, 600);
        self::assertSame(200, $shares->forNext(), 'the last: all that is left');
    }

    public function testAnItemThatOverranLeavesTheOthersTheirLeastAndNoMore(): void
    {
        $shares = CellShares::of(1_000, [100, 100, 100]);
        $shares->spent(900, 100);
        // Projected 100, took 900: the host is slower than projected, by the bounded factor 4.
        self::assertSame(4.0, $shares->correction());
        self::assertSame(400, $shares->forNext(), 'its least as corrected, though only 100 is left');
        self::assertSame(800, $shares->minimumToComeNs());
    }

    public function testAnItemOfNoWeightTakesItsLeastOnly(): void
    {
        $shares = CellShares::of(1_000, [100, 200, 100], [1.0, 0.0, 1.0]);
        self::assertSame(100 + 300, $shares->forNext(), 'the surplus of 600 goes to the two weighted items alike');
        $shares->spent(400, 400);
        self::assertSame(200, $shares->forNext(), 'the rounds: what they take');
    }

    public function testWhatAnItemCannotUseGoesToTheOthersByTheirWeights(): void
    {
        // 10,000 for items of least 100, 1,000 and 1,000 (a cheap cell, two dear ones): by weight alone the
        // cheap one had 100 + 7,900 / 21 = 476 while the dear ones could use 1,000 past their least each.
        $shares = CellShares::of(10_000, [100, 1_000, 1_000], null, null, [3_000, 2_000, 2_000]);
        self::assertSame(3_000, $shares->forNext(), 'what the dear items cannot use brings the cheap one to its most');

        // 4,000: the dear items' room (500 each) fills first; the 900 they leave is the cheap item's.
        $shares = CellShares::of(4_000, [100, 1_000, 1_000], null, null, [3_000, 1_500, 1_500]);
        self::assertSame(100 + 900, $shares->forNext());
        $shares->spent(1_000, 1_000);
        self::assertSame(1_500, $shares->forNext(), 'its most, though 3,000 is left for two items');
    }

    public function testAnItemWithoutAMostTakesWhatTheBoundedOnesLeave(): void
    {
        $shares = CellShares::of(1_000, [100, 100], null, null, [150, null]);
        self::assertSame(150, $shares->forNext());
        $shares->spent(150, 150);
        self::assertSame(850, $shares->forNext());
    }

    public function testAMostForEveryItemOrNone(): void
    {
        $this->expectExceptionMessage('CellShares: 2 items have a minimum, 1 a most');
        CellShares::of(1_000, [100, 100], null, null, [150]);
    }

    public function testOnTheRunsClockWhatIsLeftIsReadBeforeEachItem(): void
    {
        $left = 1_000;
        $shares = CellShares::of(1_000, [100, 100], null, static function () use (&$left): int {
            return $left;
        });
        self::assertSame(500, $shares->forNext());
        $shares->spent(100, 100);
        $left = 300; // something else took time on the run's clock
        self::assertSame(300, $shares->forNext());
    }

    public function testTheProjectedCostCountsTheProcessTheUntimedHashAndEveryVerification(): void
    {
        // Debian's PHP: libargon2 behind password_hash, libsodium beside it.
        $verifiers = new Argon2Verifiers('standard', true);
        $cost = HashCost::of(1_000.0, 20_000_000, 50_000.0, verifiers: $verifiers);
        $cell = Argon2Cell::of('password_hash', 'argon2id', 16_384, 1, 1);
        self::assertEqualsWithDelta(16_384_000, $cost->hashNs($cell), 1);
        self::assertSame(20_000_000 + 7 * (int) round(16_384_000 * (1 + HashCost::LIBSODIUM_VERIFY_SHARE)), $cost->cellNs($cell, 6), 'its process, then 1 + 6 hashes, each checked by libsodium');
        $sodium = Argon2Cell::of('sodium', 'argon2id', 16_384, 1, 1);
        self::assertSame(20_000_000 + 7 * 16_384_000 * 2, $cost->cellNs($sodium, 6), 'sodium\'s hashes checked by password_verify: a libargon2 hash again');
        $argon2d = Argon2Cell::of('cli', 'argon2d', 16_384, 1, 1);
        self::assertSame(20_000_000 + 7 * (16_384_000 + HashCost::CLI_START_NS), $cost->cellNs($argon2d, 6), 'nothing verifies Argon2d; the CLI starts a process per hash');
        self::assertSame((1 + 6) * 1024 * 50_000 * 2, $cost->bcryptNs(10, 6));
        $sameLibrary = HashCost::of(1_000.0, 20_000_000, 50_000.0, verifiers: new Argon2Verifiers('sodium', true));
        self::assertSame(20_000_000 + 7 * 16_384_000 * 2, $sameLibrary->cellNs($cell, 6), 'where the probes were libsodium\'s, its check costs a probed hash');
        $modelled = HashCost::of(1_000.0, 0, 50_000.0, true, verifiers: $verifiers);
        self::assertSame(6 * 16_384_000, $modelled->cellNs($cell, 6), 'under the fake clock only the timed hashes take (modelled) time');
    }

    public function testAKibPassCostsMoreOnceTheMemoryLeavesTheCaches(): void
    {
        // 16 MiB at 300 ns a KiB-pass, 64 MiB at 900: between, on the memory's logarithm; outside, the nearer.
        $cost = HashCost::of(300.0, 0, 1.0, false, 900.0);
        self::assertEqualsWithDelta(300.0, $cost->nsPerKibPassAt(1024), 1e-9);
        self::assertEqualsWithDelta(300.0, $cost->nsPerKibPassAt(16 * 1024), 1e-9);
        self::assertEqualsWithDelta(600.0, $cost->nsPerKibPassAt(32 * 1024), 1e-9, 'halfway, as 32 MiB is on a log scale');
        self::assertEqualsWithDelta(900.0, $cost->nsPerKibPassAt(1024 * 1024), 1e-9);
        self::assertEqualsWithDelta(900.0 * 65_536 * 3, $cost->hashNs(Argon2Cell::of('sodium', 'argon2id', 65_536, 1, 3)), 1.0);
    }
}
