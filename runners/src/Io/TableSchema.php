<?php

declare(strict_types=1);

namespace PhpCryptoBench\Io;

use PhpCryptoBench\Exception\IoError;

/**
 * The column order of each CSV, from data/schema/tables/<experiment>.json (Frictionless tabular
 * data resources): declared once, for PHP and Python. The build checks types and limits; the
 * runner needs only the columns, in order, so that is all it reads (and insists on).
 */
final class TableSchema
{
    /**
     * @param array<string, list<string>> $columns file name => column names
     * @param array<string, list<string>> $tables experiment => its file names, in declared order
     */
    private function __construct(private readonly array $columns, private readonly array $tables)
    {
    }

    /**
     * Every `*.json` in $directory, keyed by each resource's path (e.g. aead.csv).
     *
     * @throws IoError when the directory is missing or empty, a file cannot be read or is not JSON,
     *                 a resource lacks its path or field names, or two resources declare one path
     */
    public static function load(string $directory): self
    {
        if (!is_dir($directory)) {
            throw IoError::cannotRead($directory, 'expected the directory of table schemas (one <experiment>.json per experiment), found none');
        }
        $files = glob($directory . '/*.json') ?: [];
        if ($files === []) {
            throw IoError::cannotRead($directory, 'expected one <experiment>.json per experiment there, found no *.json file');
        }
        $columns = [];
        $declaredIn = [];
        $tables = [];
        foreach ($files as $file) {
            $document = JsonFile::read($file, 'expected a readable JSON file');
            $experiment = self::experiment($file, $document);
            $tables[$experiment] = [];
            foreach (self::resources($file, $document) as $index => $resource) {
                [$path, $names] = self::pathAndColumns($file, $index, $resource);
                if (isset($declaredIn[$path])) {
                    throw IoError::cannotRead($file, sprintf('resource %d declares %s, already declared in %s; expected each CSV in one file only', $index, $path, $declaredIn[$path]));
                }
                $declaredIn[$path] = basename($file);
                $columns[$path] = $names;
                $tables[$experiment][] = $path;
            }
        }
        return new self($columns, $tables);
    }

    /** The experiment a schema file declares: its "experiment" name, which the file is named after. */
    /** @param array<mixed> $document */
    private static function experiment(string $file, array $document): string
    {
        $name = $document['experiment'] ?? null;
        $expected = basename($file, '.json');
        if ($name !== $expected) {
            throw IoError::cannotRead($file, sprintf('expected "experiment": "%s" (the file\'s name), got %s', $expected, json_encode($name)));
        }
        return $expected;
    }

    /**
     * @param array<mixed> $document
     * @return list<mixed>
     */
    private static function resources(string $file, array $document): array
    {
        $resources = $document['resources'] ?? null;
        if (!is_array($resources) || !array_is_list($resources) || $resources === []) {
            throw IoError::cannotRead($file, sprintf('expected a non-empty "resources" list, got %s', get_debug_type($resources)));
        }
        return $resources;
    }

    /** @return array{string, list<string>} the resource's path and its column names, in order */
    private static function pathAndColumns(string $file, int $index, mixed $resource): array
    {
        $path = is_array($resource) ? ($resource['path'] ?? null) : null;
        $schema = is_array($resource) ? ($resource['schema'] ?? null) : null;
        if (is_string($schema)) {
            // A Table Schema several experiments share (data/schema/shared/<name>.json), declared once.
            if (preg_match('~^shared/[a-z0-9-]+\.json$~', $schema) !== 1) {
                throw IoError::cannotRead($file, sprintf('resource %d: expected a shared schema shared/<name>.json, got "%s"', $index, $schema));
            }
            $schema = JsonFile::read(dirname($file, 2) . '/' . $schema, 'expected a readable shared Table Schema');
        }
        $fields = is_array($schema) ? ($schema['fields'] ?? null) : null;
        if (!is_string($path) || $path === '' || !is_array($fields) || !array_is_list($fields) || $fields === []) {
            throw IoError::cannotRead($file, sprintf('resource %d: expected a "path" and a non-empty "schema.fields" list', $index));
        }
        $names = [];
        foreach ($fields as $position => $field) {
            $name = is_array($field) ? ($field['name'] ?? null) : null;
            if (!is_string($name) || $name === '') {
                throw IoError::cannotRead($file, sprintf('resource %d (%s): field %d: expected a "name", got none', $index, $path, $position));
            }
            $names[] = $name;
        }
        return [$path, $names];
    }

    public function table(string $name): CsvTable
    {
        return new CsvTable($this->columns($name));
    }

    /**
     * The tables an experiment writes, in the order its schema file declares them: the only list
     * of them (the first holds its measurements).
     *
     * @return list<string>
     */
    public function tablesOf(string $experiment): array
    {
        return $this->tables[$experiment] ?? throw IoError::undeclaredExperiment($experiment, array_keys($this->tables));
    }

    /** @return list<string> */
    public function columns(string $name): array
    {
        return $this->columns[$name] ?? throw IoError::undeclaredTable($name, array_keys($this->columns));
    }
}
