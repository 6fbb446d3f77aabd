<?php

declare(strict_types=1);

namespace PhpCryptoBench\Twin;

use PhpCryptoBench\Experiment\ExperimentSetup;
use PhpCryptoBench\Tests\Support\EmptyExperiment;

/** A fixture: an experiment that takes a name already used. */
final class TwinExperiment extends EmptyExperiment
{
    public static function create(ExperimentSetup $setup): self
    {
        return new self($setup->repository);
    }

    public function name(): string
    {
        return 'aead';
    }
}
