<?php

declare(strict_types=1);

namespace PhpCryptoBench\Tests\Harness;

use PhpCryptoBench\Exception\VerificationFailed;
use PhpCryptoBench\Harness\FakeTimer;
use PhpCryptoBench\Harness\Profile;
use PhpCryptoBench\Harness\Sampler;
use PhpCryptoBench\Tests\Support\CountingCase;
use PHPUnit\Framework\TestCase;

final class SamplerTest extends TestCase
{
    public function testCalibratesToTheSmallestCountThatLastsTenMillisecondsOfFakeTime(): void
    {
        $timer = new FakeTimer(1_000, 0, [0]); // 1 µs per iteration, whatever the bytes, no jitter
        $sampler = new Sampler($timer, Profile::named('quick'));
        $iterations = $sampler->calibrate(new CountingCase());
        self::assertGreaterThanOrEqual(10_000, $iterations);
        self::assertLessThan(12_000, $iterations, 'calibration overshoots by at most the 10 % margin');
    }

    public function testCalibrationStopsAtTheProfilesIterationCap(): void
    {
        // 1 ns per iteration would need 10 million iterations; the quick profile caps at a million.
        $sampler = new Sampler(new FakeTimer(1, 0), Profile::named('quick'));
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

    public function testQuickProfileWritesSevenSamplesEachVerified(): void
    {
        $case = new CountingCase();
        $samples = (new Sampler(new FakeTimer(), Profile::named('quick')))->measure($case);

        self::assertCount(7, $samples);
        self::assertSame(range(0, 6), array_map(static fn ($s) => $s->index, $samples));
        self::assertSame($case->runs, $case->verifications, 'every timed run is verified');
        $first = $samples[0];
        foreach ($samples as $sample) {
            self::assertSame($first->iterations, $sample->iterations);
            self::assertGreaterThanOrEqual(10_000_000, $sample->elapsedNs);
        }
    }

    public function testFullProfileTakesTwentyFiveSamples(): void
    {
        self::assertCount(25, (new Sampler(new FakeTimer(), Profile::named('full')))->measure(new CountingCase()));
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
    }

    public function testTheFakeClockSpreadsAQuickCasesSevenSamplesWithTheirMedianOnTheModel(): void
    {
        $timer = new FakeTimer();
        $case = new CountingCase(4096, null, 'aes-128-gcm');
        $model = $timer->nsPerIteration($case);
        $samples = (new Sampler($timer, Profile::named('quick')->forFakeClock()))->measure($case);

        // The warm-up and the calibration take the cycle's first two offsets; the samples the seven after.
        $expected = array_map(static fn (int $i): int => intdiv($model * (1000 + FakeTimer::JITTER[($i + 2) % 7]), 1000), range(0, 6));
        self::assertSame($expected, array_map(static fn ($sample): int => $sample->elapsedNs, $samples));
        $sorted = $expected;
        sort($sorted);
        self::assertSame($model, $sorted[3], 'the median is the model itself');
        self::assertSame(intdiv($model * 970, 1000), $sorted[0]);
        self::assertSame(intdiv($model * 1030, 1000), $sorted[6]);
    }

    public function testTheJitterCycleIsAPermutationOfMinusToPlusThreePercent(): void
    {
        $cycle = FakeTimer::JITTER;
        sort($cycle);
        self::assertSame([-30, -20, -10, 0, 10, 20, 30], $cycle);
    }

    public function testAWrongOutputStopsTheMeasurementWithoutSamples(): void
    {
        $this->expectException(VerificationFailed::class);
        (new Sampler(new FakeTimer(), Profile::named('quick')))->measure(new CountingCase(1024, 4));
    }

    public function testTheEstimateCountsSamplesPlusWarmUpAtTheMinimumSampleLength(): void
    {
        self::assertEqualsWithDelta(240 * 11 * 0.01, Profile::named('quick')->estimatedSeconds(240), 1e-9);
        self::assertEqualsWithDelta(240 * 29 * 0.01, Profile::named('full')->estimatedSeconds(240), 1e-9);
    }

    public function testAnUnknownProfileIsAUsageError(): void
    {
        $this->expectExceptionMessage('unknown profile "fast"; expected quick or full');
        Profile::named('fast');
    }
}
