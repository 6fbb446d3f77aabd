<?php

declare(strict_types=1);

namespace PhpCryptoBench\Io;

use PhpCryptoBench\Exception\IoError;

/**
 * The column order of each CSV, from data/schema/tables/<experiment>.json (Frictionless tabular
 * data resources): declared once, for PHP and Python. The build checks types and limits; the
 * runner needs only the columns, in order.
 */
final class TableSchema
{
    /** @param array<string, list<string>> $columns file name => column names */
    private function __construct(private readonly array $columns)
    {
    }

    public static function load(string $directory): self
    {
        $files = is_dir($directory) ? (glob($directory . '/*.json') ?: []) : [];
        if ($files === []) {
            throw IoError::cannotRead($directory, 'expected one <experiment>.json per experiment there, found none');
        }
        $columns = [];
        $declaredIn = [];
        foreach ($files as $file) {
            $resources = JsonFile::read($file, 'schema file missing')['resources'] ?? null;
            if (!is_array($resources)) {
                throw IoError::cannotRead($file, 'expected a "resources" list');
            }
            foreach ($resources as $index => $resource) {
                $path = $resource['path'] ?? null;
                $fields = $resource['schema']['fields'] ?? null;
                if (!is_string($path) || !is_array($fields) || $fields === []) {
                    throw IoError::cannotRead($file, sprintf('resource %d: expected a "path" and a non-empty "schema.fields" list', $index));
                }
                if (isset($declaredIn[$path])) {
                    throw IoError::cannotRead($file, sprintf('%s is already declared in %s', $path, $declaredIn[$path]));
                }
                $declaredIn[$path] = basename($file);
                $columns[$path] = array_column($fields, 'name');
            }
        }
        return new self($columns);
    }

    public function table(string $name): CsvTable
    {
        return new CsvTable($this->columns($name));
    }

    /** @return list<string> */
    public function columns(string $name): array
    {
        return $this->columns[$name] ?? throw IoError::cannotRead($name, 'no such table in the schema');
    }
}
