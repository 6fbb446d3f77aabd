<?php

declare(strict_types=1);

namespace PhpCryptoBench\Tests\Harness;

use PhpCryptoBench\Exception\VerificationFailed;
use PhpCryptoBench\Harness\FakeTimer;
use PhpCryptoBench\Harness\JitterCycle;
use PhpCryptoBench\Harness\Profile;
use PhpCryptoBench\Harness\Sampler;
use PhpCryptoBench\Tests\Support\CountingCase;
use PHPUnit\Framework\TestCase;

final class SamplerTest extends TestCase
{
    public function testCalibratesToTheSmallestCountThatLastsTenMillisecondsOfFakeTime(): void
    {
        $timer = new FakeTimer(1_000, 0, JitterCycle::none()); // 1 µs per iteration, whatever the bytes, no jitter
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
        // 1 µs per call + 4096 B × 0.25 ps × (1 + crc32("aes-128-gcm") % 4 = 4)
        self::assertSame(5_096, $timer->nsPerIteration($case));
        $samples = (new Sampler($timer, Profile::named('quick')->forFakeClock()))->measure($case);

        // The warm-up and the calibration take the cycle's first two offsets (0, +3 %); the samples
        // the seven after: −2 %, +1 %, −3 %, +2 %, −1 %, 0, +3 %.
        $elapsed = array_map(static fn ($sample): int => $sample->elapsedNs, $samples);
        self::assertSame([4_994, 5_146, 4_943, 5_197, 5_045, 5_096, 5_248], $elapsed);
        sort($elapsed);
        self::assertSame(5_096, $elapsed[3], 'the median is the model itself');
    }

    public function testTheFakeClockCountsEachCaseOnItsOwn(): void
    {
        $timer = new FakeTimer();
        $a = new CountingCase(4096, null, 'aes-128-gcm');
        $b = new CountingCase(4096, null, 'aes-256-gcm');
        self::assertSame([5_096, 5_248], [$timer->time($a, 1), $timer->time($a, 1)]);
        self::assertSame(5_096, $timer->time($b, 1), 'another key starts its own cycle');
        self::assertSame(4_994, $timer->time($a, 1));
        self::assertSame(4_994 * 3, (new FakeTimer(4_994, 0, JitterCycle::none()))->time($a, 3), 'iterations scale the model before the offset');
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
