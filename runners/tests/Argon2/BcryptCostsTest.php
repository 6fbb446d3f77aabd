<?php

declare(strict_types=1);

namespace PhpCryptoBench\Tests\Argon2;

use PhpCryptoBench\Argon2\BcryptCosts;
use PhpCryptoBench\Argon2\CellSampling;
use PhpCryptoBench\Harness\JitterCycle;
use PhpCryptoBench\Io\CsvTable;
use PHPUnit\Framework\TestCase;

/** bcrypt at costs 10 to 13 beside the Argon2 grid: verified first, then sampled as a cell is. */
final class BcryptCostsTest extends TestCase
{
    public function testTheKnownAnswerAndASelfTestPassBeforeTiming(): void
    {
        $checked = BcryptCosts::verify();
        self::assertStringContainsString(BcryptCosts::KNOWN_ANSWER[1], $checked['known_answer']);
        self::assertStringStartsWith('password_hash bcrypt: password_verify accepts its hash', $checked['self_test']);
    }

    public function testUnderTheFakeClockEachCostIsModelledAndItsFirstHashIsReal(): void
    {
        $table = new CsvTable(['cost', 'sample', 'wall_ns', 'cpu_ns', 'verified']);
        // The tests' cap (as KilledChildTest's runs set it): the rows are the model's all the same.
        BcryptCosts::forRun(true, '4')->measureInto($table, CellSampling::forProfile('quick'));

        $byCost = [];
        foreach ($table->records() as $row) {
            self::assertSame('true', $row['verified']);
            $byCost[(int) $row['cost']][] = (int) $row['wall_ns'];
        }
        self::assertSame(BcryptCosts::COSTS, array_keys($byCost));
        foreach ($byCost as $cost => $walls) {
            // 6 samples: the cycle's first six offsets, within ±2.4 %, so the CI is within ±3 % and sampling stops.
            self::assertCount(6, $walls, "cost $cost");
            $model = (1 << $cost) * BcryptCosts::FAKE_NS_PER_ROUND;
            self::assertSame(array_map(static fn (int $i): int => (new JitterCycle())->apply($model, $i), range(0, 5)), $walls);
        }
        self::assertSame($byCost[11][0], 2 * $byCost[10][0], 'each step of cost doubles the model');
    }

    public function testTheTestsCapLowersOnlyTheFakeClocksRealHashes(): void
    {
        self::assertSame([10, 11, 12, 13], BcryptCosts::COSTS);
        $capped = BcryptCosts::forRun(true, '4');
        self::assertSame([4, 4, 4, 4], array_map($capped->realHashCost(...), BcryptCosts::COSTS));
        self::assertSame([10, 11, 11, 11], array_map(BcryptCosts::forRun(true, '11')->realHashCost(...), BcryptCosts::COSTS), 'a cap above a cost leaves it');
        self::assertSame(4, (new BcryptCosts(true, fakeClockMaxCost: 2))->realHashCost(10), 'never below what password_hash() accepts');
        foreach ([BcryptCosts::forRun(true, false), BcryptCosts::forRun(true, 'x'), BcryptCosts::forRun(false, '4'), new BcryptCosts(false, fakeClockMaxCost: 4)] as $uncapped) {
            self::assertSame(BcryptCosts::COSTS, array_map($uncapped->realHashCost(...), BcryptCosts::COSTS), 'no cap set, or the real clock');
        }
    }

    public function testARealHashIsTimedAndVerifiedSampleBySample(): void
    {
        // Cost 7 for speed (an eighth of cost 10, still milliseconds a hash: a real one, not the model);
        // every row is one hash password_verify accepted.
        $rows = (new BcryptCosts(false))->measure(7, 6, 6, 0);
        self::assertCount(6, $rows);
        self::assertSame(range(0, 5), array_column($rows, 'sample'));
        foreach ($rows as $row) {
            self::assertSame(7, $row['cost']);
            self::assertTrue($row['verified']);
            self::assertGreaterThan(1_000_000, $row['wall_ns'], 'a cost-7 hash takes milliseconds');
        }
    }

    public function testASlowCostStopsOnceItsBudgetIsSpentButNotBeforeItsLeastHashes(): void
    {
        // Before issue 48.3 a spent budget stopped a cost after 3 hashes: too few for a CI of its median.
        // A budget of 1 ns makes any cost slow: bcrypt's least (4) spares the real first hash at cost 10
        // that the fake clock still makes and verifies.
        $rows = (new BcryptCosts(true))->measure(4, 6, 30, 1);
        self::assertCount(6, $rows);
    }

    public function testTheTallyCountsEachCostAsACase(): void
    {
        $rows = [];
        foreach ([10, 11] as $cost) {
            foreach ([100, 101, 99, 100, 102, 98] as $sample => $wall) {
                $rows[] = ['cost' => (string) $cost, 'sample' => (string) $sample, 'wall_ns' => (string) $wall];
            }
        }
        $tally = CellSampling::forProfile('quick')->tally([], [], $rows);
        self::assertSame(2, $tally['cases']);
        self::assertSame(2, $tally['within_target']);
    }
}
