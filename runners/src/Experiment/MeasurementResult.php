<?php

declare(strict_types=1);

namespace PhpCryptoBench\Experiment;

/** Files written by a measurement, and why it is only partial when something could not be measured. */
final class MeasurementResult
{
    /**
     * @param list<string> $files names relative to the run directory
     * @param list<string> $gaps what could not be measured, and why
     * @param array<string, mixed>|null $measuredBy EnvironmentProbe::process() of the processes that
     *        measured, when the experiment measured in processes of its own (Argon2's cells); null:
     *        the process that ran measure()
     * @param array<string, mixed>|null $sampling SamplingTally::toManifest() of an experiment that sampled
     *        outside the Sampler (Argon2's cells); null: the Sampler's tally
     */
    public function __construct(
        public readonly array $files,
        public readonly array $gaps = [],
        public readonly ?array $measuredBy = null,
        public readonly ?array $sampling = null,
    ) {
    }
}
