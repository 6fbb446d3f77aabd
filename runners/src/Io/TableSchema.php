<?php

declare(strict_types=1);

namespace PhpCryptoBench\Io;

use PhpCryptoBench\Exception\IoError;

/** The column order of each CSV, read from data/schema/tables.json: declared once, for PHP and Python. */
final class TableSchema
{
    /** @param array<string, list<string>> $columns table => column names */
    private function __construct(private readonly array $columns)
    {
    }

    public static function load(string $path): self
    {
        $data = JsonFile::read($path, 'schema file missing');
        $columns = [];
        foreach ($data['tables'] as $table => $definition) {
            $columns[$table] = array_column($definition['columns'], 'name');
        }
        return new self($columns);
    }

    public function table(string $name): CsvTable
    {
        return new CsvTable($this->columns[$name] ?? throw IoError::cannotRead($name, 'no such table in the schema'));
    }

    /** @return list<string> */
    public function columns(string $name): array
    {
        return $this->columns[$name] ?? throw IoError::cannotRead($name, 'no such table in the schema');
    }
}
