<?php

declare(strict_types=1);

namespace PhpCryptoBench\Sample;

use PhpCryptoBench\Experiment\ExperimentSetup;
use PhpCryptoBench\Tests\Support\EmptyExperiment;

/** A fixture: an experiment outside runners/src, found by the registry from its file name. */
final class SampleExperiment extends EmptyExperiment
{
    public static function create(ExperimentSetup $setup): self
    {
        return new self($setup->repository);
    }

    public function name(): string
    {
        return SampleName::NAME;
    }
}
