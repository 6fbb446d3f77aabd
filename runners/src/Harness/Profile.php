<?php

declare(strict_types=1);

namespace PhpCryptoBench\Harness;

use PhpCryptoBench\Exception\UsageError;

/** How hard to measure: samples per case, the minimum sample duration, the native tool's seconds. */
final class Profile
{
    private function __construct(
        public readonly string $name,
        public readonly int $samples,
        public readonly int $minSampleNs,
        public readonly int $maxIterations,
        public readonly int $nativeSeconds,
    ) {
    }

    /**
     * A lower bound for $cases cases: warm-up and calibration take about four sample lengths,
     * and no sample is shorter than the minimum (slow cases take longer).
     */
    public function estimatedSeconds(int $cases): float
    {
        return $cases * ($this->samples + 4) * $this->minSampleNs / 1e9;
    }

    public static function named(string $name): self
    {
        return match ($name) {
            // 7 samples: the smallest odd count whose order-statistic 95% CI of the median is finite.
            'quick' => new self('quick', 7, 10_000_000, 1_000_000, 1),
            'full' => new self('full', 25, 10_000_000, 10_000_000, 3),
            default => throw UsageError::invalidProfile($name),
        };
    }
}
