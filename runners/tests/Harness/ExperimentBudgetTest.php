<?php

declare(strict_types=1);

namespace PhpCryptoBench\Tests\Harness;

use PhpCryptoBench\Harness\ExperimentBudget;
use PHPUnit\Framework\TestCase;

final class ExperimentBudgetTest extends TestCase
{
    public function testAGroupTakesItsCasesShareOfWhatIsLeftAmongTheCasesToCome(): void
    {
        // 1,000 ns from t = 500 for 10 cases; each case's ceiling 300.
        $budget = ExperimentBudget::of(1_000, 500, 10, 300);
        self::assertSame(200, $budget->forGroup(500, 2, 0), 'two of ten: a fifth');
        self::assertSame(450, $budget->forGroup(600, 4, 2), 'at t = 600, 900 left for 8: four of them half');
        self::assertSame(900, $budget->forGroup(600, 8, 2), 'the last eight: all that is left (their ceilings, 8 × 300, would allow more)');
        self::assertSame(300, $budget->forGroup(600, 1, 9), 'the last case: its ceiling');
        self::assertSame(100, $budget->forGroup(1_400, 2, 8), 'the last two: the 100 left');
        self::assertSame([0, 0], [$budget->forGroup(1_600, 2, 8), $budget->leftNs(1_600)], 'past it: nothing');
    }

    public function testALaterRoundSharesAsIfItsCasesWereStillToCome(): void
    {
        $budget = ExperimentBudget::of(1_000, 0, 4, 1_000);
        self::assertSame(1_000, $budget->forGroup(0, 4, 4, false), 'all four counted: nothing else to come');
        self::assertSame(200, $budget->forGroup(0, 1, 0, false), 'with four to come: a fifth');
    }

    public function testMoreCasesThanTheExperimentSaidShareWhatIsLeftAmongThemselves(): void
    {
        // symmetric finds ciphers while it measures: its count is a lower bound.
        self::assertSame(300, ExperimentBudget::of(300, 0, 5, 1_000)->forGroup(0, 3, 5));
    }

    public function testAGroupPastItsFloorSharesAmongTheCasesStillGoingAndThoseToCome(): void
    {
        // 1,000 ns from t = 0 for 10 cases, six of them measured to their floors (measureGrouped), 3 still going.
        $budget = ExperimentBudget::of(1_000, 0, 10, 1_000);
        self::assertSame(71, $budget->forOpenCases(500, 1, 2, 6), 'at t = 500, one of the 3 still going, beside the other 2 and the 4 to come: a seventh of 500');
        self::assertSame(500, $budget->forOpenCases(500, 3, 0, 10), 'the last: all that is left, the ten measured');
        self::assertSame(300, ExperimentBudget::of(10_000, 0, 10, 100)->forOpenCases(0, 3, 0, 10), 'no more than their ceilings');
        $budget->reserve(250);
        self::assertSame(250, $budget->forOpenCases(500, 3, 0, 10), 'what is reserved is not shared');
        self::assertSame(4_000, ExperimentBudget::unlimited(0, 2_000)->forOpenCases(10, 2, 5, 0), 'without a budget: their ceilings');
        self::assertFalse(ExperimentBudget::unlimited(0, 2_000)->isLimited());
        self::assertTrue($budget->isLimited());
    }

    public function testWithoutABudgetEachCaseHasItsCeiling(): void
    {
        $budget = ExperimentBudget::unlimited(0, 2_000);
        self::assertSame(6_000, $budget->forGroup(10, 3, 0));
        self::assertSame(PHP_INT_MAX, $budget->leftNs(10));
        self::assertNull($budget->budgetNs);
    }
}
