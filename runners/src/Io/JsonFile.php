<?php

declare(strict_types=1);

namespace PhpCryptoBench\Io;

use JsonException;
use PhpCryptoBench\Exception\IoError;

final class JsonFile
{
    /** @return array<mixed> the decoded top-level object or list */
    public static function read(string $path, string $whatIfMissing = 'file missing'): array
    {
        $json = @file_get_contents($path);
        if ($json === false) {
            throw IoError::cannotRead($path, $whatIfMissing);
        }
        try {
            $data = json_decode($json, true, 64, JSON_THROW_ON_ERROR);
        } catch (JsonException $e) {
            throw IoError::cannotRead($path, $e->getMessage());
        }
        if (!is_array($data)) {
            throw IoError::cannotRead($path, 'expected a JSON object, got ' . get_debug_type($data));
        }
        return $data;
    }
}
