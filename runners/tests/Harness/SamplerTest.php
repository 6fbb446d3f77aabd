<?php

declare(strict_types=1);

namespace PhpCryptoBench\Tests\Harness;

use PhpCryptoBench\Exception\InvalidInterleaving;
use PhpCryptoBench\Exception\VerificationFailed;
use PhpCryptoBench\Harness\BenchCase;
use PhpCryptoBench\Harness\FakeTimer;
use PhpCryptoBench\Harness\Interleaving;
use PhpCryptoBench\Harness\JitterCycle;
use PhpCryptoBench\Harness\MedianInterval;
use PhpCryptoBench\Harness\Profile;
use PhpCryptoBench\Harness\Progress;
use PhpCryptoBench\Harness\RandomTime;
use PhpCryptoBench\Harness\Sample;
use PhpCryptoBench\Harness\Sampler;
use PhpCryptoBench\Tests\Support\CountingCase;
use PhpCryptoBench\Tests\Support\FaultingTimer;
use PhpCryptoBench\Tests\Support\NoisyTimer;
use PHPUnit\Framework\TestCase;

final class SamplerTest extends TestCase
{
    private const QUICK_TARGET = 0.03;

    /** @param list<Sample> $samples @return list<float> */
    private static function perOperation(array $samples): array
    {
        return array_map(static fn (Sample $s): float => $s->elapsedNs / $s->iterations, $samples);
    }

    /** @param list<Sample> $samples */
    private static function halfWidth(array $samples): float
    {
        return MedianInterval::of(self::perOperation($samples))->relativeHalfWidth();
    }

    public function testCalibratesToTheSmallestCountThatLastsTheProfilesSampleLengthOfFakeTime(): void
    {
        $timer = new FakeTimer(1_000, 0, JitterCycle::none()); // 1 µs per iteration, whatever the bytes, no jitter
        $sampler = new Sampler($timer, Profile::named('quick'));
        $iterations = $sampler->calibrate(new CountingCase());
        self::assertSame(500_000, Profile::named('quick')->minSampleNs);
        self::assertGreaterThanOrEqual(500, $iterations);
        self::assertLessThan(600, $iterations, 'calibration overshoots by at most the 10 % margin');
    }

    public function testCalibrationStopsAtTheProfilesIterationCap(): void
    {
        // A case that takes no measurable time would never reach a sample's length; the quick profile caps at a million.
        $sampler = new Sampler(new FakeTimer(0, 0), Profile::named('quick'));
        self::assertSame(1_000_000, $sampler->calibrate(new CountingCase()));
    }

    public function testAMinimumOperationCountRaisesTheIterationsPerSample(): void
    {
        // Under the fake clock's profile one iteration per sample suffices; 100 keys over 7 samples need 15.
        $profile = Profile::named('quick')->forFakeClock();
        $samples = (new Sampler(new FakeTimer(), $profile))->measure(new CountingCase(), 100);

        self::assertCount(7, $samples);
        self::assertSame(15, $samples[0]->iterations);
        self::assertGreaterThanOrEqual(100, array_sum(array_map(static fn ($s) => $s->iterations, $samples)));
        self::assertSame(1, (new Sampler(new FakeTimer(), $profile))->measure(new CountingCase())[0]->iterations);
    }

    /** @return BenchCase&RandomTime a counting case that says whether its operation takes a random time */
    private static function randomTimeCase(bool $random): BenchCase
    {
        return new class ($random) implements BenchCase, RandomTime {
            private readonly CountingCase $counting;

            public function __construct(private readonly bool $random)
            {
                $this->counting = new CountingCase();
            }

            public function takesRandomTime(): bool
            {
                return $this->random;
            }

            public function key(): array
            {
                return $this->counting->key();
            }

            public function label(): string
            {
                return 'random-time case';
            }

            public function bytesPerIteration(): int
            {
                return $this->counting->bytesPerIteration();
            }

            public function run(int $iterations): void
            {
                $this->counting->run($iterations);
            }

            public function verifyLastRun(): void
            {
                $this->counting->verifyLastRun();
            }
        };
    }

    public function testACaseOfRandomTimeTakesItsFixedOperationsASampleWhateverTheirLength(): void
    {
        // 1 µs an operation: calibrated, a sample would be 500 of them (the quick profile's 0.5 ms); an operation
        // of random time is measured by its mean over a fixed count, whatever a warm-up drew.
        $timer = new FakeTimer(1_000, 0, JitterCycle::none());
        $random = (new Sampler($timer, Profile::named('quick')))->measure(self::randomTimeCase(true));
        self::assertNotEmpty($random);
        self::assertSame([16], array_values(array_unique(array_map(static fn (Sample $s): int => $s->iterations, $random))));
        self::assertSame(16, (new Sampler($timer, Profile::named('quick')))->calibrate(self::randomTimeCase(true)));

        $fixed = (new Sampler($timer, Profile::named('quick')))->measure(self::randomTimeCase(false));
        self::assertGreaterThanOrEqual(500, $fixed[0]->iterations, 'a case that says its time is not random is calibrated');
    }

    public function testARandomTimeCaseOfLongOperationsKeepsItsCountAndAMinimumCountTakesMoreSamples(): void
    {
        // 10 ms an operation, past the quick profile's sample length: calibrated, one a sample; here still 16.
        $long = (new Sampler(new FakeTimer(10_000_000, 0, JitterCycle::none()), Profile::named('quick')))->measure(self::randomTimeCase(true));
        self::assertSame(16, $long[0]->iterations);

        $profile = Profile::named('quick')->forFakeClock();
        $samples = (new Sampler(new FakeTimer(), $profile))->measure(self::randomTimeCase(true), 200);
        self::assertCount(13, $samples, '200 operations at 16 a sample');
        self::assertSame(16, max(array_map(static fn (Sample $s): int => $s->iterations, $samples)));
    }

    public function testEachSampleRecordsThePageFaultsOfItsTimedRunNotOfItsVerification(): void
    {
        $timer = new FaultingTimer(258);
        $case = new class ($timer) implements \PhpCryptoBench\Harness\BenchCase {
            public function __construct(private readonly FaultingTimer $timer)
            {
            }

            public function key(): array
            {
                return ['algorithm' => 'faulting'];
            }

            public function label(): string
            {
                return 'faulting case';
            }

            public function bytesPerIteration(): int
            {
                return 1_048_576;
            }

            public function run(int $iterations): void
            {
            }

            public function verifyLastRun(): void
            {
                $this->timer->fault(1_000);
            }
        };
        $samples = (new Sampler($timer, Profile::named('quick')->forFakeClock()))->measure($case);

        self::assertNotEmpty($samples);
        foreach ($samples as $sample) {
            self::assertSame(258 * $sample->iterations, $sample->minorFaults);
        }
        self::assertSame(0, (new Sampler(new FakeTimer(), Profile::named('quick')))->measure(new CountingCase())[0]->minorFaults, 'a modelled clock counts none');
    }

    public function testAQuietQuickCaseStopsAtItsSevenMinimumSamplesEachVerified(): void
    {
        $case = new CountingCase();
        $sampler = new Sampler(new FakeTimer(), Profile::named('quick'));
        $samples = $sampler->measure($case);

        self::assertCount(7, $samples, 'the fake clock spreads ±2.4 %: within the ±3 % target at once');
        self::assertSame(range(0, 6), array_map(static fn ($s) => $s->index, $samples));
        self::assertSame($case->runs, $case->verifications, 'every timed run is verified');
        $first = $samples[0];
        foreach ($samples as $sample) {
            self::assertSame($first->iterations, $sample->iterations);
            self::assertGreaterThanOrEqual(500_000 * (1000 - JitterCycle::BOUND_PER_MILLE) / 1000, $sample->elapsedNs);
        }
        self::assertSame(['target' => 0.03, 'minimum_samples' => 7, 'cases' => 1, 'within_target' => 1], array_slice($sampler->tally()->toManifest(), 0, 4));
    }

    public function testALaterRoundOfACaseAlreadyCountedIsNotCountedAgain(): void
    {
        $sampler = new Sampler(new FakeTimer(), Profile::named('quick'));
        $case = new CountingCase();
        $sampler->measure($case);
        $later = $sampler->measure($case, 0, false);

        self::assertCount(7, $later, 'measured all the same');
        self::assertSame([1, 1], [$sampler->tally()->cases(), $sampler->tally()->withinTarget()]);
    }

    public function testTheFullProfileTakesTwentySamplesAtLeastAndMoreUntilWithinOnePercent(): void
    {
        $samples = (new Sampler(new FakeTimer(), Profile::named('full')->forFakeClock()))->measure(new CountingCase());

        self::assertGreaterThanOrEqual(20, count($samples));
        self::assertLessThanOrEqual(0.01, self::halfWidth($samples));
        self::assertGreaterThan(0.01, self::halfWidth(array_slice($samples, 0, -1)), 'it stops at the first sample that reaches the target');
    }

    public function testInTheQuickProfileACaseWhoseSevenSamplesWouldPassItsCeilingTakesSixTheFewestWithAnInterval(): void
    {
        $quick = Profile::named('quick');
        // 0.7 s a sample (des-ede3-cfb1's 200 KiB round trip): 2 fit in the 2 s ceiling, so the fewest
        // with a 95 % CI of the median, 6; 0.25 s: 8 fit, so the profile's 7.
        $timer = new NoisyTimer(['cfb1' => 700_000_000, 'rsa' => 250_000_000], 0.001);
        [$cfb1, $rsa] = (new Sampler($timer, $quick))->measureInterleaved(
            [new CountingCase(64, null, 'cfb1'), new CountingCase(64, null, 'rsa')],
            new Interleaving('t.csv', ['payload_bytes']),
        );

        self::assertSame(2_000_000_000, $quick->caseCeilingNs, 'the ceiling this test divides');
        self::assertCount(Profile::FEWEST_WITH_AN_INTERVAL, $cfb1);
        self::assertNotNull(MedianInterval::lowRank(count($cfb1)), 'still a finite 95 % interval');
        self::assertCount(Profile::FEWEST_SAMPLES, $rsa);
    }

    public function testInTheQuickProfileACaseWhoseWarmUpTookTenSamplesLengthIsNotCalibrated(): void
    {
        // 100 ms an operation: its warm-up, then 7 samples of one operation each; 1 ms: its warm-up,
        // a calibration run (one operation already outlasts the 0.5 ms sample), then 7.
        $timer = new NoisyTimer(['keygen' => 100_000_000, 'ms' => 1_000_000], 0.001);
        $slow = new CountingCase(64, null, 'keygen');
        $ms = new CountingCase(64, null, 'ms');
        [$slowSamples, $msSamples] = (new Sampler($timer, Profile::named('quick')))->measureInterleaved([$slow, $ms], new Interleaving('t.csv', ['payload_bytes']));

        self::assertSame([1 + Profile::FEWEST_SAMPLES, 2 + Profile::FEWEST_SAMPLES], [$slow->runs, $ms->runs]);
        self::assertSame([1], array_values(array_unique(array_map(static fn (Sample $s): int => $s->iterations, [...$slowSamples, ...$msSamples]))), 'one operation a sample either way');
    }

    public function testInTheFullProfileEveryCaseIsCalibrated(): void
    {
        $full = Profile::named('full');
        $slow = new CountingCase(64, null, 'keygen');
        (new Sampler(new NoisyTimer(['keygen' => 100_000_000], 0.001), $full))->measureInterleaved([$slow], null);

        self::assertSame(2 + $full->minSamples, $slow->runs, 'its warm-up, a calibration run, then its 20 samples');
    }

    public function testInTheFullProfileACaseWhoseTwentySamplesWouldPassItsCeilingTakesWhatFits(): void
    {
        $full = Profile::named('full');
        // 10 s a sample: 6 fit in the 60 s ceiling, so the fewest (7); 4.9 s: 12 fit; 100 us: the profile's 20.
        $timer = new NoisyTimer(['10s' => 10_000_000_000, '5s' => 4_900_000_000, 'fast' => 100_000], 0.001);
        [$ten, $five, $fast] = (new Sampler($timer, $full))->measureInterleaved(
            [new CountingCase(64, null, '10s'), new CountingCase(64, null, '5s'), new CountingCase(64, null, 'fast')],
            new Interleaving('t.csv', ['payload_bytes']),
        );

        self::assertSame(60_000_000_000, $full->caseCeilingNs, 'the ceiling this test divides');
        self::assertCount(Profile::FEWEST_SAMPLES, $ten);
        self::assertCount(12, $five);
        self::assertCount($full->minSamples, $fast);
        self::assertSame(array_column($fast, 'index'), range(0, $full->minSamples - 1), 'the fast case\'s rounds go on without the others');
    }

    public function testALongGroupTellsItsProgressThatItIsStillSampling(): void
    {
        $timer = new NoisyTimer(['11s' => 11_000_000_000, 'fast' => 100_000], 0.001);
        $stream = fopen('php://memory', 'w+b');
        $progress = new Progress($stream, $timer->now(...));
        $progress->begin('symmetric', 2);
        (new Sampler($timer, Profile::named('full'), $progress))->measureInterleaved(
            [new CountingCase(64, null, '11s'), new CountingCase(64, null, 'fast')],
            new Interleaving('t.csv', ['payload_bytes']),
        );
        rewind($stream);
        $lines = array_slice(explode("\n", trim((string) stream_get_contents($stream))), 1);

        // Warm-up and calibration take 22 s of the 11 s case, then each round 11 s: a line at 33 s, 66 s
        // and 99 s (rounds 1, 4, 7), none after its 7 samples, while the fast case's rounds take microseconds.
        self::assertSame([1, 4, 7], array_map(static fn (string $line): int => (int) preg_replace('/.* after (\d+) rounds?.*/', '$1', $line), $lines));
        self::assertStringStartsWith('[symmetric] 0/2 still sampling: 2 of the 2 cases of this group after 1 round  ', $lines[0]);
    }

    public function testAMinimumOperationCountStillHoldsForACaseOfLongSamples(): void
    {
        // 100 operations of 2 s: 5 a sample (100 / 20), 10 s a sample; the ceiling fits 6, the 100 need 20.
        $samples = (new Sampler(new NoisyTimer(['keygen' => 2_000_000_000], 0.001), Profile::named('full')))->measure(new CountingCase(0, null, 'keygen'), 100);

        self::assertSame(100, array_sum(array_column($samples, 'iterations')));
    }

    public function testANoisyCaseTakesMoreSamplesUntilItsMedianIsWithinTheTarget(): void
    {
        $quiet = new Sampler(new NoisyTimer(['quiet' => 5_000], 0.005), Profile::named('quick'));
        $noisy = new Sampler(new NoisyTimer(['noisy' => 5_000], 0.03), Profile::named('quick'));
        $few = $quiet->measure(new CountingCase(0, null, 'quiet'));
        $many = $noisy->measure(new CountingCase(0, null, 'noisy'));

        self::assertCount(7, $few);
        self::assertGreaterThan(7, count($many));
        self::assertLessThanOrEqual(self::QUICK_TARGET, self::halfWidth($many));
        self::assertGreaterThan(self::QUICK_TARGET, self::halfWidth(array_slice($many, 0, -1)), 'and not one sample more');
        self::assertSame(1, $noisy->tally()->withinTarget());
    }

    public function testACaseThatCannotReachItsTargetInItsTimeStopsAtOnceAndIsCountedOutOfTime(): void
    {
        $profile = Profile::named('quick');
        // 2 ms a sample, ±30 %: ±3 % would take some 700 samples, 1.4 s, more than the 300 ms it has.
        $timer = new NoisyTimer(['wild' => 2_000_000], 0.3);
        $sampler = new Sampler($timer, $profile);
        $sampler->beginExperiment(300_000_000, 1);
        $samples = $sampler->measure(new CountingCase(0, null, 'wild'));

        self::assertSame(10_000_000, $profile->caseSliceNs);
        self::assertCount(Profile::FEWEST_SAMPLES + 4, $samples, 'its minimum, its slice (four more of its 2 ms samples), then no sample it cannot use');
        self::assertGreaterThan(self::QUICK_TARGET, self::halfWidth($samples));
        self::assertSame([1, 0, 1], [$sampler->tally()->cases(), $sampler->tally()->withinTarget(), $sampler->tally()->outOfTime()]);
        self::assertSame($timer->now(), $sampler->tally()->spentNs(), 'the tally knows what the sampling took');
        $slice = array_sum(array_map(static fn (Sample $s): int => $s->elapsedNs, array_slice($samples, Profile::FEWEST_SAMPLES)));
        self::assertSame($slice, $sampler->tally()->beyondLeastNs(), 'the rest the floor');
        self::assertLessThanOrEqual(10_000_000, $slice);
        self::assertSame('sampled 1 case in 0:00 (0:00 of it past their least samples): 0 within ±3 %, 1 stopped short when their time ran out', $sampler->tally()->summary());
    }

    public function testACaseThatCanReachItsTargetTakesTheSamplesItNeedsWithinItsBudget(): void
    {
        $profile = Profile::named('quick');
        // 2 ms a sample, ±8 %: some 60 samples, 120 ms, within its 300 ms.
        $timer = new NoisyTimer(['noisy' => 2_000_000], 0.08);
        $sampler = new Sampler($timer, $profile);
        $sampler->beginExperiment(300_000_000, 1);
        $samples = $sampler->measure(new CountingCase(0, null, 'noisy'));

        self::assertGreaterThan(30, count($samples));
        self::assertLessThanOrEqual(self::QUICK_TARGET, self::halfWidth($samples));
        self::assertLessThanOrEqual(300_000_000, $timer->now());
        self::assertSame([1, 1, 0], [$sampler->tally()->cases(), $sampler->tally()->withinTarget(), $sampler->tally()->outOfTime()]);
        $elapsed = static fn (array $some): int => array_sum(array_map(static fn (Sample $s): int => $s->elapsedNs, $some));
        self::assertSame($elapsed(array_slice($samples, Profile::FEWEST_SAMPLES)), $sampler->tally()->beyondLeastNs(), 'what the samples past the seventh took (this clock: verifying takes no time)');
        self::assertGreaterThan($elapsed(array_slice($samples, 0, Profile::FEWEST_SAMPLES)), $sampler->tally()->beyondLeastNs(), 'more than the floor');
        self::assertSame('sampled 1 case in 0:00 (0:00 of it past their least samples): 1 within ±3 %', $sampler->tally()->summary());
    }

    public function testACheapCaseTakesItsSliceEvenWhenItsGroupHasNothingLeft(): void
    {
        // An experiment whose budget went to others (0 left): a 20 µs case at ±3 %, its 7 samples (of
        // about 1 ms) not within ±3 %, still takes up to 10 ms more, and that is enough.
        $timer = new NoisyTimer(['cheap' => 20_000], 0.03);
        $sampler = new Sampler($timer, Profile::named('quick'));
        $sampler->beginExperiment(0, 1);
        $samples = $sampler->measure(new CountingCase(0, null, 'cheap'));

        self::assertGreaterThan(Profile::FEWEST_SAMPLES, count($samples));
        self::assertLessThanOrEqual(self::QUICK_TARGET, self::halfWidth($samples));
        self::assertLessThanOrEqual(10_000_000 + end($samples)->elapsedNs, $sampler->tally()->beyondLeastNs(), 'no more than its slice');
    }

    public function testTimeQuietCasesLeaveGoesToANoisyOneLater(): void
    {
        $profile = Profile::named('quick');
        $model = ['quiet' => 5_000, 'noisy' => 2_000_000];
        $sigma = ['quiet' => 0.001, 'noisy' => 0.08];
        // Five cases share 300 ms. The noisy one alone, with the fifth that is its share: not enough.
        $alone = new Sampler(new NoisyTimer($model, $sigma), $profile);
        $alone->beginExperiment(60_000_000, 1);
        $alone->measure(new CountingCase(0, null, 'noisy'));
        self::assertSame([0, 1], [$alone->tally()->withinTarget(), $alone->tally()->outOfTime()]);

        // After four quiet cases that took a few milliseconds of their 240: the noisy one has the rest.
        $timer = new NoisyTimer($model, $sigma);
        $sampler = new Sampler($timer, $profile);
        $sampler->beginExperiment(300_000_000, 5);
        for ($i = 0; $i < 4; $i++) {
            $sampler->measure(new CountingCase($i, null, 'quiet'));
        }
        $quietSpent = $timer->now();
        self::assertSame(300_000_000 - $quietSpent, $sampler->budget()->forGroup($quietSpent, 1, 4), 'all that is left');
        $sampler->measure(new CountingCase(0, null, 'noisy'));

        self::assertLessThan(20_000_000, $quietSpent, 'the quiet cases left time');
        self::assertSame([5, 5], [$sampler->tally()->cases(), $sampler->tally()->withinTarget()], 'the noisy case used it');
        self::assertLessThanOrEqual(300_000_000, $timer->now(), 'and no more than there was');
    }

    public function testWhatAQuietGroupLeavesGoesToANoisyGroupMeasuredBeforeIt(): void
    {
        $quiet = ['q1', 'q2', 'q3', 'q4'];
        $model = ['noisy' => 2_000_000] + array_fill_keys($quiet, 5_000);
        $sigma = ['noisy' => 0.08] + array_fill_keys($quiet, 0.001);
        $case = static fn (int $group): \Closure => static fn (string $algorithm): CountingCase => new CountingCase($group, null, $algorithm);
        // The noisy case's group comes first, with five of the nine cases: five ninths of 200 ms, which
        // did not bring it within target when each group took its rounds in turn (with this timer's draws;
        // over seeds 1-10 of the timer, 3 reached it then, 8 now). The quiet group takes a few
        // milliseconds of its four ninths, and the noisy case's later rounds come after its floor.
        $cases = [...array_map($case(0), ['noisy', ...$quiet]), ...array_map($case(1), $quiet)];
        $timer = new NoisyTimer($model, $sigma);
        $sampler = new Sampler($timer, Profile::named('quick'));
        $sampler->beginExperiment(200_000_000, count($cases));
        $samples = $sampler->measureGrouped($cases, new Interleaving('t.csv', ['payload_bytes']));

        self::assertSame([9, 9, 0], [$sampler->tally()->cases(), $sampler->tally()->withinTarget(), $sampler->tally()->outOfTime()], 'the noisy case used what the quiet group left');
        self::assertLessThanOrEqual(200_000_000, $timer->now(), 'and no more than there was');
        foreach ($samples as $caseSamples) {
            self::assertSame(array_keys($caseSamples), array_map(static fn (Sample $s): int => $s->index, $caseSamples), 'sample r of each case is its group\'s round r');
        }
    }

    public function testPastEveryGroupsFloorTheGroupCheapestToFinishGoesOnFirst(): void
    {
        // Two groups of one noisy case each: a 2 ms one first in the table, then a 20 µs one. Each takes
        // its floor in table order; then the cheap one finishes first, and the costly one has what it left.
        $timer = new NoisyTimer(['costly' => 2_000_000, 'cheap' => 20_000], 0.06);
        $sampler = new Sampler($timer, Profile::named('quick'));
        $sampler->beginExperiment(10_000_000_000, 2);
        CountingCase::$order = [];
        $sampler->measureGrouped([new CountingCase(0, null, 'costly'), new CountingCase(1, null, 'cheap')], new Interleaving('t.csv', ['payload_bytes']));

        $stretches = [];
        foreach (CountingCase::$order as $algorithm) {
            if (end($stretches) !== $algorithm) {
                $stretches[] = $algorithm;
            }
        }
        self::assertSame(['costly', 'cheap', 'costly'], $stretches, 'the floors in table order, then the cheap group to its end, then the costly one');
        self::assertSame([2, 2], [$sampler->tally()->cases(), $sampler->tally()->withinTarget()]);
    }

    public function testWhenAGroupCannotAffordEveryCaseTheCheapOnesGoOnAndTheSlowNoisyOneStops(): void
    {
        $profile = Profile::named('quick');
        // A 100 ms key generation at ±30 % beside three cheap cases at ±8 %: what would bring the
        // key generation within ±3 % (minutes) would have taken the others' time.
        $model = ['keygen' => 100_000_000, 'a' => 20_000, 'b' => 20_000, 'c' => 20_000];
        $sigma = ['keygen' => 0.3, 'a' => 0.08, 'b' => 0.08, 'c' => 0.08];
        $timer = new NoisyTimer($model, $sigma);
        $sampler = new Sampler($timer, $profile);
        $sampler->beginExperiment(2_000_000_000, 4);
        $samples = $sampler->measureInterleaved(
            array_map(static fn (string $a): CountingCase => new CountingCase(64, null, $a), array_keys($model)),
            new Interleaving('t.csv', ['payload_bytes']),
        );

        self::assertCount(Profile::FEWEST_SAMPLES, $samples[0], 'the key generation: its minimum');
        foreach ([1, 2, 3] as $cheap) {
            self::assertLessThanOrEqual(self::QUICK_TARGET, self::halfWidth($samples[$cheap]));
        }
        self::assertSame([4, 3, 1], [$sampler->tally()->cases(), $sampler->tally()->withinTarget(), $sampler->tally()->outOfTime()]);
        self::assertLessThanOrEqual(2_000_000_000, $timer->now());
    }

    public function testNoCaseTakesMoreThanTheProfilesCeilingWhateverTheBudgetLeaves(): void
    {
        $profile = Profile::named('quick');
        // 100 ms a sample, ±6 %: some 30 samples, 3 s, past the 2 s ceiling however long the budget.
        $timer = new NoisyTimer(['slow' => 100_000_000], 0.06);
        $sampler = new Sampler($timer, $profile);
        $sampler->beginExperiment(600_000_000_000, 1);
        $samples = $sampler->measure(new CountingCase(0, null, 'slow'));

        self::assertLessThanOrEqual($profile->caseCeilingNs + end($samples)->elapsedNs, $timer->now());
        self::assertSame(1, $sampler->tally()->outOfTime());
    }

    public function testAGroupTakesItsShareOfWhatIsLeftAmongTheCasesStillToCome(): void
    {
        $profile = Profile::named('quick');
        // 10 cases expected in 1 s; the first group of 2 may take 200 ms, not the whole second.
        $timer = new NoisyTimer(['x' => 1_000_000, 'y' => 1_000_000], 0.3);
        $sampler = new Sampler($timer, $profile);
        $sampler->beginExperiment(1_000_000_000, 10);
        self::assertSame(200_000_000, $sampler->budget()->forGroup($timer->now(), 2, 0));
        $sampler->measureInterleaved([new CountingCase(64, null, 'x'), new CountingCase(64, null, 'y')], new Interleaving('t.csv', ['payload_bytes']));

        self::assertLessThanOrEqual(200_000_000, $timer->now());
        self::assertSame(1_000_000_000 - $timer->now(), $sampler->budget()->leftNs($timer->now()));
    }

    public function testInterleavingRemovesADriftOfTheMachineFromARatio(): void
    {
        // A is truly 1.5× B's time; the machine gets six times as slow per second; 1 % noise.
        $model = ['a' => 15_000, 'b' => 10_000];
        $a = new CountingCase(64, null, 'a');
        $b = new CountingCase(64, null, 'b');

        $sequential = new Sampler(new NoisyTimer($model, 0.01, 5.0), Profile::named('quick'));
        $ratioApart = self::medianOf(self::perOperation($sequential->measure($a))) / self::medianOf(self::perOperation($sequential->measure($b)));

        $rotation = new Sampler(new NoisyTimer($model, 0.01, 5.0), Profile::named('quick'));
        [$sa, $sb] = $rotation->measureInterleaved([new CountingCase(64, null, 'a'), new CountingCase(64, null, 'b')], new Interleaving('t.csv', ['payload_bytes']));
        $rounds = min(count($sa), count($sb));
        self::assertGreaterThanOrEqual(7, $rounds);
        self::assertSame(array_column(array_slice($sa, 0, $rounds), 'index'), array_column(array_slice($sb, 0, $rounds), 'index'), 'sample r of each in round r');
        $perRound = array_map(static fn (Sample $x, Sample $y): float => ($x->elapsedNs / $x->iterations) / ($y->elapsedNs / $y->iterations), array_slice($sa, 0, $rounds), array_slice($sb, 0, $rounds));
        $ratioPaired = self::medianOf($perRound);

        self::assertGreaterThan(0.02, abs($ratioApart / 1.5 - 1), 'one after the other, the drift moves the ratio');
        self::assertLessThan(0.01, abs($ratioPaired / 1.5 - 1), 'in rotation, paired by round, it does not');
    }

    public function testInAGroupEachCaseStopsOnItsOwnAndTheRestGoOn(): void
    {
        $timer = new NoisyTimer(['quiet' => 5_000, 'noisy' => 5_000], ['quiet' => 0.001, 'noisy' => 0.03]);
        $stopped = [];
        [$noisy, $quiet] = (new Sampler($timer, Profile::named('quick')))->measureInterleaved(
            [new CountingCase(64, null, 'noisy'), new CountingCase(64, null, 'quiet')],
            new Interleaving('t.csv', ['payload_bytes']),
            measured: static function (CountingCase $case) use (&$stopped): void {
                $stopped[] = $case->key()['algorithm'];
            },
        );
        self::assertSame(['quiet', 'noisy'], $stopped, 'progress as each stops, the quiet one first');
        self::assertCount(7, $quiet);
        self::assertGreaterThan(7, count($noisy));
        self::assertLessThanOrEqual(self::QUICK_TARGET, self::halfWidth($noisy));
        self::assertSame(range(0, count($noisy) - 1), array_column($noisy, 'index'), 'its rounds go on, numbered as before');
    }

    public function testEachRoundStartsWithTheNextCase(): void
    {
        CountingCase::$order = [];
        $cases = [new CountingCase(64, null, 'x'), new CountingCase(64, null, 'y'), new CountingCase(64, null, 'z')];
        (new Sampler(new FakeTimer(), Profile::named('quick')->forFakeClock()))->measureInterleaved($cases, new Interleaving('t.csv', ['payload_bytes']));
        // Warm-up and calibration: two runs each, one case after the other; then seven rounds of three.
        self::assertSame([9, 9, 9], array_map(static fn (CountingCase $c): int => $c->runs, $cases));
        $order = CountingCase::$order;
        $rounds = array_chunk(array_slice($order, -21), 3);
        self::assertSame(['x', 'y', 'z'], $rounds[0]);
        self::assertSame(['y', 'z', 'x'], $rounds[1]);
        self::assertSame(['z', 'x', 'y'], $rounds[2]);
        self::assertSame(['x', 'y', 'z'], $rounds[3]);
    }

    public function testTheTallyRecordsWhichTablesCasesWereSampledInRotation(): void
    {
        $sampler = new Sampler(new FakeTimer(), Profile::named('quick')->forFakeClock());
        $sampler->measureGrouped([new CountingCase(16, null, 'a'), new CountingCase(16, null, 'b'), new CountingCase(32, null, 'a')], new Interleaving('t.csv', ['payload_bytes']));
        $sampler->measure(new CountingCase(8, null, 'alone'));
        $record = $sampler->tally()->toManifest();
        self::assertSame(4, $record['cases']);
        self::assertEquals((object) ['t.csv' => ['payload_bytes']], $record['interleaved_by']);

        $sampler->measureGrouped([new CountingCase(16, null, 'c')], new Interleaving('t.csv', ['payload_bytes']));
        self::assertEquals((object) [], $sampler->tally()->toManifest()['interleaved_by'], 'two groups of 16 B: which pairs were together is lost');
        $sampler->beginExperiment();
        self::assertSame(0, $sampler->tally()->cases());
    }

    public function testCasesOfAGroupMustShareItsColumns(): void
    {
        $this->expectException(InvalidInterleaving::class);
        $this->expectExceptionMessage('cases interleaved by "payload_bytes" must share its value: expected 16');
        (new Sampler(new FakeTimer(), Profile::named('quick')->forFakeClock()))->measureInterleaved([new CountingCase(16), new CountingCase(32)], new Interleaving('t.csv', ['payload_bytes']));
    }

    public function testAGroupTooLargeForTheMemoryLimitIsMeasuredOneCaseAfterTheOther(): void
    {
        $limit = ini_get('memory_limit');
        ini_set('memory_limit', (string) (memory_get_usage() + 64 * 1024 * 1024));
        try {
            $sampler = new Sampler(new FakeTimer(), Profile::named('quick')->forFakeClock());
            $makers = [static fn (): CountingCase => new CountingCase(16, null, 'a'), static fn (): CountingCase => new CountingCase(16, null, 'b')];
            $measured = $sampler->measureMade($makers, 1024 * 1024 * 1024, new Interleaving('t.csv', ['payload_bytes']));
        } finally {
            ini_set('memory_limit', (string) $limit);
        }
        self::assertSame(['a', 'b'], array_map(static fn (array $m): string => $m[0]->key()['algorithm'], $measured));
        self::assertCount(7, $measured[1][1]);
        self::assertEquals((object) [], $sampler->tally()->toManifest()['interleaved_by'], 'not sampled together: not to be paired');
    }

    public function testFakeTimeIsDeterministicAndScalesWithBytesAndAlgorithm(): void
    {
        $timer = new FakeTimer(1_000, 250);
        $small = new CountingCase(16, null, 'aes-256-gcm');
        $large = new CountingCase(16384, null, 'aes-256-gcm');
        $factor = 1 + crc32('aes-256-gcm') % 4;
        self::assertSame(1_000 + intdiv(16 * 250 * $factor, 1000), $timer->nsPerIteration($small));
        self::assertSame(3 * (1_000 + intdiv(16384 * 250 * $factor, 1000)), $timer->time($large, 3));
        self::assertSame(3, $large->iterationsRun, 'the fake clock still runs the work');
        self::assertSame(3 * (1_000 + intdiv(16384 * 250 * $factor, 1000)), $timer->now(), 'its clock is the modelled time so far');
    }

    public function testTheFakeClockSpreadsAQuickCasesSevenSamplesWithTheirMedianOnTheModel(): void
    {
        $timer = new FakeTimer();
        $case = new CountingCase(4096, null, 'aes-128-gcm');
        // 1 µs per call + 4096 B × 0.25 ps × (1 + crc32("aes-128-gcm") % 4 = 4)
        self::assertSame(5_096, $timer->nsPerIteration($case));
        $samples = (new Sampler($timer, Profile::named('quick')->forFakeClock()))->measure($case);

        // The warm-up and the calibration take the cycle's first two offsets (0, +2.4 %); the
        // samples the seven after: −1.6 %, +0.8 %, −2.4 %, +1.6 %, −0.8 %, 0, +2.4 %.
        $elapsed = array_map(static fn ($sample): int => $sample->elapsedNs, $samples);
        self::assertSame([5_014, 5_136, 4_973, 5_177, 5_055, 5_096, 5_218], $elapsed);
        sort($elapsed);
        self::assertSame(5_096, $elapsed[3], 'the median is the model itself');
    }

    public function testTheFakeClockCountsEachCaseOnItsOwn(): void
    {
        $timer = new FakeTimer();
        $a = new CountingCase(4096, null, 'aes-128-gcm');
        $b = new CountingCase(4096, null, 'aes-256-gcm');
        self::assertSame([5_096, 5_218], [$timer->time($a, 1), $timer->time($a, 1)]);
        self::assertSame(5_096, $timer->time($b, 1), 'another key starts its own cycle');
        self::assertSame(5_014, $timer->time($a, 1));
        self::assertSame(4_994 * 3, (new FakeTimer(4_994, 0, JitterCycle::none()))->time($a, 3), 'iterations scale the model before the offset');
    }

    public function testAWrongOutputStopsTheMeasurementWithoutSamples(): void
    {
        $this->expectException(VerificationFailed::class);
        (new Sampler(new FakeTimer(), Profile::named('quick')))->measure(new CountingCase(1024, 4));
    }

    public function testTheEstimateIsEveryCasesAllowance(): void
    {
        self::assertEqualsWithDelta(240 * 0.15, Profile::named('quick')->estimatedSeconds(240), 1e-9);
        self::assertEqualsWithDelta(240 * 0.8, Profile::named('full')->estimatedSeconds(240), 1e-9);
    }

    public function testAnUnknownProfileIsAUsageError(): void
    {
        $this->expectExceptionMessage('unknown profile "fast"; expected quick or full');
        Profile::named('fast');
    }

    /** @param list<float> $values */
    private static function medianOf(array $values): float
    {
        return MedianInterval::of($values)->median;
    }
}
