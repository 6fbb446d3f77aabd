<?php

declare(strict_types=1);

namespace PhpCryptoBench\Experiment;

use PhpCryptoBench\Io\TableSchema;

/**
 * What every experiment is built from (Experiment::create): the repository it lives in (for its
 * helper scripts and OpenSSL configurations), the CSV schema it writes, and the test vectors.
 */
final class ExperimentSetup
{
    public function __construct(
        public readonly string $repository,
        public readonly TableSchema $schema,
        /** Project Wycheproof's test vectors. */
        public readonly string $vectorDirectory,
    ) {
    }

    /** The setup of a checkout: data/schema/tables/ and vectors/wycheproof/ under $repository. */
    public static function forRepository(string $repository): self
    {
        return new self($repository, TableSchema::load($repository . '/data/schema/tables'), $repository . '/vectors/wycheproof');
    }
}
