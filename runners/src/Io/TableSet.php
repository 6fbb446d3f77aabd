<?php

declare(strict_types=1);

namespace PhpCryptoBench\Io;

use PhpCryptoBench\Exception\IoError;

/**
 * The CSV tables one experiment writes: every table its schema file declares, opened together and
 * written together (each file atomically, the list of names returned for the run's manifest). The
 * schema is the only list of an experiment's tables; the experiment refers to them by name.
 */
final class TableSet
{
    /** @param array<string, CsvTable> $tables by file name, in the order the schema declares them */
    private function __construct(private readonly array $tables)
    {
    }

    public static function ofExperiment(TableSchema $schema, string $experiment): self
    {
        $tables = [];
        foreach ($schema->tablesOf($experiment) as $name) {
            $tables[$name] = $schema->table($name);
        }
        return new self($tables);
    }

    /** The same set without a table this run cannot measure (it is then neither written nor listed). */
    public function without(string $name): self
    {
        $this->get($name);
        return new self(array_diff_key($this->tables, [$name => true]));
    }

    public function get(string $name): CsvTable
    {
        return $this->tables[$name] ?? throw IoError::undeclaredTable($name, array_keys($this->tables));
    }

    /** @return list<string> the file names, in the schema's order */
    public function names(): array
    {
        return array_keys($this->tables);
    }

    /** @return list<string> the file names written, in the schema's order */
    public function writeTo(string $directory): array
    {
        foreach ($this->tables as $name => $table) {
            $table->writeTo($directory . '/' . $name);
        }
        return $this->names();
    }
}
