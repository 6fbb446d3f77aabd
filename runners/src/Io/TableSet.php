<?php

declare(strict_types=1);

namespace PhpCryptoBench\Io;

use PhpCryptoBench\Exception\IoError;

/**
 * The CSV tables one experiment writes, opened from the schema by name and written together: each
 * file atomically, the list of names returned for the run's manifest.
 */
final class TableSet
{
    /** @param array<string, CsvTable> $tables by file name, in the order they were named */
    private function __construct(private readonly array $tables)
    {
    }

    public static function open(TableSchema $schema, string ...$names): self
    {
        $tables = [];
        foreach ($names as $name) {
            $tables[$name] = $schema->table($name);
        }
        return new self($tables);
    }

    public function get(string $name): CsvTable
    {
        return $this->tables[$name] ?? throw IoError::undeclaredTable($name, array_keys($this->tables));
    }

    /** @return list<string> the file names written, in the order they were named */
    public function writeTo(string $directory): array
    {
        foreach ($this->tables as $name => $table) {
            $table->writeTo($directory . '/' . $name);
        }
        return array_keys($this->tables);
    }
}
