<?php

declare(strict_types=1);

namespace PhpCryptoBench\Harness;

/**
 * Warm-up, calibration and sampling. Every timed run is verified before its sample counts.
 */
final class Sampler
{
    public function __construct(
        private readonly Timer $timer,
        private readonly Profile $profile,
    ) {
    }

    /** @return list<Sample> */
    public function measure(BenchCase $case): array
    {
        $this->timedAndVerified($case, 1); // warm-up: caches, lazy initialisation, first allocation
        $iterations = $this->calibrate($case);
        $samples = [];
        for ($index = 0; $index < $this->profile->samples; $index++) {
            $samples[] = new Sample($index, $iterations, $this->timedAndVerified($case, $iterations));
        }
        return $samples;
    }

    /** The smallest iteration count (within the cap) whose run lasts at least the profile's minimum. */
    public function calibrate(BenchCase $case): int
    {
        $target = $this->profile->minSampleNs;
        $iterations = 1;
        while ($iterations < $this->profile->maxIterations) {
            $elapsed = $this->timedAndVerified($case, $iterations);
            if ($elapsed >= $target) {
                break;
            }
            // Aim 10 % past the target so noise does not leave the next try just short of it.
            $predicted = (int) ceil($iterations * 1.1 * $target / max($elapsed, 1));
            $iterations = min($this->profile->maxIterations, max($iterations * 2, $predicted));
        }
        return $iterations;
    }

    private function timedAndVerified(BenchCase $case, int $iterations): int
    {
        $elapsed = $this->timer->time($case, $iterations);
        $case->verifyLastRun();
        return $elapsed;
    }
}
