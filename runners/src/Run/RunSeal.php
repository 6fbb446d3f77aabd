<?php

declare(strict_types=1);

namespace PhpCryptoBench\Run;

use PhpCryptoBench\Exception\IoError;

/**
 * A finished run's seal: each of its files' rows (CSV records after the header) and SHA-256, recorded
 * in the manifest. The build (scripts/phpcb/data/seal.py) counts and hashes the same way and refuses a run
 * whose files do not match: a committed run cannot change without an explicit re-seal.
 */
final class RunSeal
{
    /**
     * @param list<string> $files names of files in $directory
     * @return array<string, array{rows: int, sha256: string}>
     */
    public static function of(string $directory, array $files): array
    {
        $seal = [];
        foreach ($files as $name) {
            $path = $directory . '/' . $name;
            $sha256 = is_file($path) ? hash_file('sha256', $path) : false;
            if ($sha256 === false) {
                throw IoError::cannotRead($path, 'a file the run lists is missing: it cannot be sealed');
            }
            $seal[$name] = ['rows' => self::rows($path), 'sha256' => $sha256];
        }
        return $seal;
    }

    /**
     * What seals the manifest itself: the SHA-256 of its text before the seal, its last member. Given the
     * manifest's JSON without a seal ("{...\n}"), that is the text up to its closing "\n}": once the seal is
     * added, the file reads the same bytes, then ",\n    \"seal\": ...". scripts/phpcb/data/seal.py checks it.
     */
    public static function manifestDigest(string $jsonWithoutSeal): string
    {
        return hash('sha256', substr($jsonWithoutSeal, 0, -2));
    }

    /** CSV records after the header, quoted line breaks included in their record. */
    public static function rows(string $path): int
    {
        $handle = fopen($path, 'r');
        if ($handle === false) {
            throw IoError::cannotRead($path, 'it cannot be opened to count its rows');
        }
        $records = 0;
        while (fgetcsv($handle, null, ',', '"', '') !== false) {
            $records++;
        }
        fclose($handle);
        return max(0, $records - 1);
    }
}
