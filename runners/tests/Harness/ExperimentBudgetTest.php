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

    public function testWithoutABudgetEachCaseHasItsCeiling(): void
    {
        $budget = ExperimentBudget::unlimited(0, 2_000);
        self::assertSame(6_000, $budget->forGroup(10, 3, 0));
        self::assertSame(PHP_INT_MAX, $budget->leftNs(10));
        self::assertNull($budget->budgetNs);
    }
}
