<?php

declare(strict_types=1);

namespace PhpCryptoBench\Tests\Support;

use PhpCryptoBench\Experiment\Experiment;
use PhpCryptoBench\Experiment\ExperimentContext;
use PhpCryptoBench\Experiment\MeasurementResult;
use PhpCryptoBench\Harness\Profile;

/** An experiment that does nothing: the registry's fixtures give it a name and a factory. */
abstract class EmptyExperiment implements Experiment
{
    public function __construct(public readonly string $repository)
    {
    }

    public function description(): string
    {
        return 'a fixture';
    }

    public function unavailableReason(): ?string
    {
        return null;
    }

    public function verify(): array
    {
        return [];
    }

    public function caseCount(Profile $profile): int
    {
        return 0;
    }

    public function processEnvironment(): array
    {
        return [];
    }

    public function measure(ExperimentContext $context): MeasurementResult
    {
        return new MeasurementResult([]);
    }
}
