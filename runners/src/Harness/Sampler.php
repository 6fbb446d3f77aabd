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

    /**
     * @param int $minimumOperations operations all samples together must time at least (e.g. the
     *                               paper's 100 keys per curve); more iterations per sample if needed
     * @return list<Sample>
     */
    public function measure(BenchCase $case, int $minimumOperations = 0): array
    {
        $this->timedAndVerified($case, 1); // warm-up: caches, lazy initialisation, first allocation
        [$iterations, $sampleNs] = $this->calibrated($case);
        $samples = [];
        $count = $this->profile->samplesFor($sampleNs);
        $iterations = max($iterations, (int) ceil($minimumOperations / $count));
        for ($index = 0; $index < $count; $index++) {
            $samples[] = new Sample($index, $iterations, $this->timedAndVerified($case, $iterations));
        }
        return $samples;
    }

    /** The smallest iteration count (within the cap) whose run lasts at least the profile's minimum. */
    public function calibrate(BenchCase $case): int
    {
        return $this->calibrated($case)[0];
    }

    /** @return array{int, int} the iteration count, and how long a run of that many took */
    private function calibrated(BenchCase $case): array
    {
        $target = $this->profile->minSampleNs;
        $iterations = 1;
        $elapsed = 0;
        $timedIterations = 1;
        while ($iterations < $this->profile->maxIterations) {
            $elapsed = $this->timedAndVerified($case, $iterations);
            $timedIterations = $iterations;
            if ($elapsed >= $target) {
                return [$iterations, $elapsed];
            }
            // Aim 10 % past the target so noise does not leave the next try just short of it.
            $predicted = (int) ceil($iterations * 1.1 * $target / max($elapsed, 1));
            $iterations = min($this->profile->maxIterations, max($iterations * 2, $predicted));
        }
        // Capped before reaching the target: the last timing was of fewer iterations, so scale it.
        return [$iterations, intdiv($elapsed * $iterations, $timedIterations)];
    }

    private function timedAndVerified(BenchCase $case, int $iterations): int
    {
        $elapsed = $this->timer->time($case, $iterations);
        $case->verifyLastRun();
        return $elapsed;
    }
}
