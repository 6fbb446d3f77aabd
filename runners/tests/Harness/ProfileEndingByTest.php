<?php

declare(strict_types=1);

namespace PhpCryptoBench\Tests\Harness;

use PhpCryptoBench\Harness\Profile;
use PHPUnit\Framework\TestCase;

/** `--ends-by`: the budget is the profile's, or what is left until then when that is less (make report). */
final class ProfileEndingByTest extends TestCase
{
    private const NOW = 1_795_000_000;

    public function testWhatIsLeftUntilThenWhenItIsLessThanTheProfilesBudget(): void
    {
        $quick = Profile::named('quick');
        self::assertSame(170_000_000_000, $quick->endingBy(self::NOW + 170, self::NOW)->budgetNs);
        self::assertSame(270_000_000_000, $quick->budgetNs, 'the profile itself is left as it is');
    }

    public function testTheProfilesBudgetWhenMoreIsLeft(): void
    {
        self::assertSame(Profile::QUICK_BUDGET_S * 1_000_000_000, Profile::named('quick')->endingBy(self::NOW + 900, self::NOW)->budgetNs);
        self::assertSame(Profile::FULL_BUDGET_S * 1_000_000_000, Profile::named('full')->endingBy(self::NOW + 86_400, self::NOW)->budgetNs);
    }

    public function testATimeAlreadyPastLeavesNothingNotANegativeBudget(): void
    {
        self::assertSame(0, Profile::named('quick')->endingBy(self::NOW - 30, self::NOW)->budgetNs);
    }

    public function testOnlyTheBudgetChanges(): void
    {
        $quick = Profile::named('quick');
        $ending = $quick->endingBy(self::NOW + 60, self::NOW);
        self::assertEquals($quick->withBudgetNs(60_000_000_000), $ending);
    }
}
