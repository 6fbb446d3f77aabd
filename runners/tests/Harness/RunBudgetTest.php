<?php

declare(strict_types=1);

namespace PhpCryptoBench\Tests\Harness;

use PhpCryptoBench\Harness\Profile;
use PhpCryptoBench\Harness\RunBudget;
use PHPUnit\Framework\TestCase;

final class RunBudgetTest extends TestCase
{
    public function testEachExperimentTakesItsCasesShareOfWhatIsLeft(): void
    {
        $budget = new RunBudget(300, ['aead' => 200, 'jwt' => 100, 'pq' => 0]);
        self::assertSame(200, $budget->forExperiment('aead'));
        $budget->spent('aead', 50);
        self::assertSame(250, $budget->forExperiment('jwt'), 'what aead left goes to jwt, the only one still to measure');
        $budget->spent('jwt', 280);
        self::assertSame(0, $budget->forExperiment('pq'), 'nothing left, and pq measures nothing');
        self::assertSame([330, 0], [$budget->spentNs(), $budget->leftNs()]);
    }

    public function testAnExperimentThatOverranTakesItFromThoseAfterIt(): void
    {
        $budget = new RunBudget(400, ['a' => 1, 'b' => 1, 'c' => 2]);
        self::assertSame(100, $budget->forExperiment('a'));
        $budget->spent('a', 250);
        self::assertSame(50, $budget->forExperiment('b'), 'a third of the 150 left');
        self::assertSame(100, $budget->forExperiment('c'));
    }

    public function testAResumedRunCountsWhatItsRecordedExperimentsTook(): void
    {
        $budget = new RunBudget(300, ['later' => 5], 120);
        self::assertSame(180, $budget->forExperiment('later'));
        self::assertSame(0, (new RunBudget(300, ['x' => 1], 500))->forExperiment('x'));
    }

    public function testEveryCasesSliceIsReservedBeforeTheRestIsShared(): void
    {
        // 1,000 for two experiments of 10 and 30 cases, a slice of 5 each: 200 reserved, 800 shared.
        $budget = new RunBudget(1_000, ['a' => 10, 'b' => 30], 0, 5);
        self::assertSame(200 + 50, $budget->forExperiment('a'));
        $budget->spent('a', 900);
        self::assertSame(150, $budget->forExperiment('b'), 'b\'s slices, though a took nearly everything');
        $budget->spent('b', 150);
        self::assertSame([1_050, 0], [$budget->spentNs(), $budget->leftNs()], 'over only by what the others took past their share');
    }

    public function testEachProfileHasADefaultBudgetAndAnotherCanBeGiven(): void
    {
        self::assertSame(270_000_000_000, Profile::named('quick')->budgetNs);
        self::assertSame(5_400_000_000_000, Profile::named('full')->budgetNs);
        $given = Profile::named('quick')->withBudgetNs(60_000_000_000);
        self::assertSame([60_000_000_000, 'quick', 7], [$given->budgetNs, $given->name, $given->minSamples]);
        self::assertSame([10_000_000, 50_000_000], [Profile::named('quick')->caseSliceNs, Profile::named('full')->caseSliceNs]);
        self::assertSame(60_000_000_000, $given->forFakeClock()->budgetNs, 'the fake clock keeps it');
    }
}
