<?php

declare(strict_types=1);

namespace PhpCryptoBench\Faulty;

use PhpCryptoBench\Experiment\ExperimentSetup;
use PhpCryptoBench\Tests\Support\EmptyExperiment;

/** A fixture: an experiment whose factory fails. */
final class FaultyExperiment extends EmptyExperiment
{
    public static function create(ExperimentSetup $setup): self
    {
        throw new \RuntimeException('no vectors under ' . $setup->repository);
    }

    public function name(): string
    {
        return 'faulty';
    }
}
