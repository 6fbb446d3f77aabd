<?php

declare(strict_types=1);

namespace PhpCryptoBench\Tests\Harness;

use PhpCryptoBench\Harness\ExperimentBudget;
use PhpCryptoBench\Harness\Profile;
use PhpCryptoBench\Harness\Progress;
use PhpCryptoBench\Harness\RunBudget;
use PhpCryptoBench\Harness\SlowCases;
use PhpCryptoBench\Native\InterleavedRounds;
use PhpCryptoBench\Native\NativePrimitive;
use PhpCryptoBench\Native\OpensslSpeedCommand;
use PhpCryptoBench\Native\UnsampledStep;
use PHPUnit\Framework\TestCase;

/** The work no budget shortens (FixedWork): reserved before the budget is shared, and released as it runs. */
final class FixedWorkTest extends TestCase
{
    public function testEachExperimentsFixedWorkIsReservedBeforeTheRestIsShared(): void
    {
        // 1,000 for a (10 cases, 300 fixed) and b (10 cases, none): 700 shared alike.
        $budget = new RunBudget(1_000, ['a' => 10, 'b' => 10], 0, 0, ['a' => 300]);
        self::assertSame(300 + 350, $budget->forExperiment('a'));
        self::assertSame(350, $budget->forExperiment('b'), 'b cannot have what a\'s fixed work will take');
        self::assertSame(300, $budget->fixedToComeNs());
        $budget->spent('a', 650);
        self::assertSame([350, 0], [$budget->forExperiment('b'), $budget->fixedToComeNs()]);
    }

    public function testFixedWorkBeyondTheBudgetLeavesEachItsPartOfWhatIsLeft(): void
    {
        // 800 projected, 500 left: each its part of the 500, however high the projection.
        $budget = new RunBudget(500, ['a' => 1, 'b' => 1], 0, 0, ['a' => 400, 'b' => 400]);
        self::assertSame([250, 250], [$budget->forExperiment('a'), $budget->forExperiment('b')]);
        $budget->spent('a', 450);
        self::assertSame(50, $budget->forExperiment('b'), 'a took more: b has what is left');
    }

    public function testAReservationIsSetAsideFromTheGroupsAndReleasedAsItsWorkRuns(): void
    {
        $budget = ExperimentBudget::of(1_000, 0, 4, 10_000);
        $budget->reserve(600);
        self::assertSame(100, $budget->forGroup(0, 1, 0), 'a quarter of the 400 beside the reservation');
        self::assertSame([1_000, 400], [$budget->leftNs(0), $budget->unreservedNs(0)]);
        $budget->release(600);
        self::assertSame(250, $budget->forGroup(0, 1, 0));
        self::assertSame(PHP_INT_MAX, ExperimentBudget::unlimited(0, 1)->unreservedNs(5));
    }

    public function testTheRoundsReserveTheirOpensslSpeedSecondsAndReleaseThemStepByStep(): void
    {
        $rounds = new InterleavedRounds(3);
        $second = OpensslSpeedCommand::ROUND_SECONDS * 1_000_000_000;
        $primitives = [NativePrimitive::cipher('aes-128-cbc', 1024), NativePrimitive::publicKey('rsa2048')];
        self::assertSame(3 * 3 * $second, $rounds->nativeNs($primitives, 'OpenSSL 3.0.17 1 Jul 2025'), 'one operation, then sign and verify: three seconds a round');
        self::assertSame(3 * 11 * $second, $rounds->nativeNs($primitives, 'OpenSSL 3.5.9 30 Sep 2025'), "OpenSSL 3.5's rsa2048: ten operations");
    }

    public function testTheRoundsReleaseTheirReservationStepByStepAsTheyRun(): void
    {
        $budget = ExperimentBudget::of(100_000, 0, 1, 100_000);
        $reserved = [];
        $step = new class ($budget, $reserved) implements UnsampledStep {
            /** @param list<int> $reserved */
            public function __construct(private readonly ExperimentBudget $budget, private array &$reserved)
            {
            }

            public function label(): string
            {
                return 'a step';
            }

            public function estimatedSeconds(): float
            {
                return 0.0;
            }

            public function fixedNs(): int
            {
                return 1_000;
            }

            public function measure(int $round): void
            {
                $this->reserved[] = $this->budget->reservedNs();
            }

            public function gap(): ?string
            {
                return null;
            }
        };
        $rounds = new InterleavedRounds(3);
        $rounds->reserve($budget, [$step]);
        self::assertSame(3_000, $budget->reservedNs());
        $rounds->run('test', [$step], new Progress(fopen('php://memory', 'w')), $budget);
        self::assertSame([3_000, 2_000, 1_000], $reserved, 'each round\'s step finds its own time still set aside');
        self::assertSame(0, $budget->reservedNs());
    }

    public function testASlowCaseReservesItsLeastSamplesPastWhatAFastOneTakes(): void
    {
        $quick = Profile::named('quick');
        self::assertSame(9 * 500_000, $quick->leastNs(0.0), 'warm-up, calibration and 7 samples of 0.5 ms, on any host');
        self::assertSame(9 * 4_000_000, $quick->leastNs(4_000_000.0), 'a 4 ms operation: calibrated, then one a sample');
        self::assertSame(8 * 100_000_000, $quick->leastNs(100_000_000.0), 'a 100 ms operation: its warm-up, not calibrated, then one a sample');
        self::assertSame(8 * 280_000_000, $quick->leastNs(280_000_000.0), '7 samples of 0.28 s fit in the 2 s ceiling');
        self::assertSame(7 * 300_000_000, $quick->leastNs(300_000_000.0), 'a 0.3 s operation: 7 would not fit, so the fewest with a CI, 6');
        self::assertSame(7 * 700_000_000, $quick->leastNs(700_000_000.0), 'never under 6 samples, though 2 s holds only 2');
        self::assertSame(8 * 100_000_000 - 9 * 500_000 + 0, SlowCases::extraNs($quick, [100_000_000.0, 1_000.0]), 'a fast case adds nothing');
        self::assertSame(22 * 2_000_000, Profile::named('full')->leastNs(2_000_000.0), 'full: 20 samples');
        self::assertSame(22 * 100_000_000, Profile::named('full')->leastNs(100_000_000.0), 'full: every case calibrated');
        self::assertSame(9 * 10_000_000_000, Profile::named('full')->leastNs(10_000_000_000.0), 'full: never under 7, though its 60 s ceiling holds only 6');
    }

    public function testTheQuickProfileCalibratesACaseUnlessItsWarmUpTookTenSamplesLength(): void
    {
        $quick = Profile::named('quick');
        self::assertTrue($quick->calibrates(4_999_999));
        self::assertFalse($quick->calibrates(5_000_000));
        self::assertTrue($quick->withBudgetNs(1)->calibrates(4_999_999) && !$quick->withBudgetNs(1)->calibrates(5_000_000), 'another budget, the same rule');
        self::assertTrue($quick->forFakeClock()->calibrates(100_000_000), 'the fake clock: every case, its jitter cycle\'s first two offsets the warm-up\'s and the calibration\'s');
        self::assertTrue(Profile::named('full')->calibrates(10_000_000_000), 'full: every case');
    }
}
