<?php

declare(strict_types=1);

namespace PhpCryptoBench\Experiment;

/** Files written by a measurement, and why it is only partial when something could not be measured. */
final class MeasurementResult
{
    /**
     * @param list<string> $files names relative to the run directory
     * @param list<string> $gaps what could not be measured, and why
     */
    public function __construct(
        public readonly array $files,
        public readonly array $gaps = [],
    ) {
    }
}
