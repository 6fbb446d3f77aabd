<?php

declare(strict_types=1);

namespace PhpCryptoBench\Experiment;

use PhpCryptoBench\Harness\Profile;
use PhpCryptoBench\Harness\Progress;
use PhpCryptoBench\Harness\Sampler;
use PhpCryptoBench\Native\NativeSpeed;

final class ExperimentContext
{
    public function __construct(
        public readonly Profile $profile,
        public readonly Sampler $sampler,
        public readonly Progress $progress,
        public readonly NativeSpeed $nativeSpeed,
        public readonly string $outputDirectory,
        /** Deterministic timings: experiments that time outside the Sampler (Argon2's child processes) model theirs. */
        public readonly bool $fakeClock,
        /** The machine's cores as the run's manifest records them (cpu.cores): one count for the whole run. */
        public readonly int $cores,
    ) {
    }
}
