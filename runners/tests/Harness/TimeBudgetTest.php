<?php

declare(strict_types=1);

namespace PhpCryptoBench\Tests\Harness;

use PhpCryptoBench\Harness\TimeBudget;
use PHPUnit\Framework\TestCase;

final class TimeBudgetTest extends TestCase
{
    public function testAGroupMayTakeItsAllowanceAndWhatEarlierGroupsLeft(): void
    {
        $budget = new TimeBudget(100, 1_000);
        self::assertSame(300, $budget->forCases(3), 'nothing saved yet: three allowances');
        $budget->spent(3, 120);
        self::assertSame(180, $budget->savedNs());
        self::assertSame(280, $budget->forCases(1), 'its own 100 and the 180 saved');
    }

    public function testBorrowingIsCappedByTheFactorAndTheCeiling(): void
    {
        $budget = new TimeBudget(100, 250);
        $budget->spent(10, 0);
        self::assertSame(250, $budget->forCases(1), 'the ceiling: 250, not 100 + 300');
        $wide = new TimeBudget(100, 10_000);
        $wide->spent(10, 0);
        self::assertSame(100 * TimeBudget::BORROW_FACTOR, $wide->forCases(1), 'at most four allowances');
    }

    public function testAGroupThatOverranOwesItsOverrun(): void
    {
        $budget = new TimeBudget(100, 1_000);
        $budget->spent(1, 400);
        self::assertSame(-300, $budget->savedNs());
        self::assertSame(100, $budget->forCases(1), 'no borrowing while in debt, but the own allowance stays');
    }
}
