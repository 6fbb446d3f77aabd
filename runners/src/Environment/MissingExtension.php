<?php

declare(strict_types=1);

namespace PhpCryptoBench\Environment;

/** Why an experiment cannot run: the first PHP extension it needs that this PHP lacks. */
final class MissingExtension
{
    /** What to tell the user beyond the name, where the remedy is not obvious. */
    private const HINTS = [
        'sodium' => ' (built into PHP 7.2+)',
    ];

    /**
     * @param list<string> $names in the order the experiment needs them
     * @param (callable(string): bool)|null $loaded extension_loaded, unless a test says otherwise
     */
    public static function among(array $names, ?callable $loaded = null): ?string
    {
        $loaded ??= extension_loaded(...);
        foreach ($names as $name) {
            if (!$loaded($name)) {
                return sprintf('%s extension not loaded%s', $name, self::HINTS[$name] ?? '');
            }
        }
        return null;
    }
}
