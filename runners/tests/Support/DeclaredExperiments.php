<?php

declare(strict_types=1);

namespace PhpCryptoBench\Tests\Support;

/**
 * The experiments the repository declares, by name: one data/schema/tables/<name>.json each. Tests
 * compare the registry with this list instead of writing the names out again.
 */
final class DeclaredExperiments
{
    /** @return list<string> sorted by name */
    public static function names(string ...$extra): array
    {
        $names = array_map(
            static fn (string $path): string => basename($path, '.json'),
            glob(REPOSITORY . '/data/schema/tables/*.json') ?: [],
        );
        $names = [...$names, ...$extra];
        sort($names);

        return $names;
    }
}
