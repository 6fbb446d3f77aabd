<?php

declare(strict_types=1);

namespace PhpCryptoBench\Experiment;

use PhpCryptoBench\Io\TableSchema;

/** What every experiment is built from: the repository it lives in and the CSV schema it writes. */
final class ExperimentSetup
{
    public function __construct(
        public readonly string $repository,
        public readonly TableSchema $schema,
    ) {
    }

    public static function forRepository(string $repository): self
    {
        return new self($repository, TableSchema::load($repository . '/data/schema/tables'));
    }

    /** Project Wycheproof's test vectors, shipped under vectors/. */
    public function vectorDirectory(): string
    {
        return $this->repository . '/vectors/wycheproof';
    }
}
