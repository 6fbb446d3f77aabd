<?php

declare(strict_types=1);

namespace PhpCryptoBench\Io;

use JsonException;
use PhpCryptoBench\Exception\IoError;
use stdClass;

final class JsonFile
{
    /** @return array<mixed> the decoded top-level object or list */
    public static function read(string $path, string $whatIfMissing = 'file missing'): array
    {
        $data = self::decode($path, $whatIfMissing);
        return self::toArrays($data, false);
    }

    /**
     * For a file that will be written back: like read(), but an empty JSON object stays an empty
     * object, so that `{}` is not rewritten as `[]`.
     *
     * @return array<mixed>
     */
    public static function readForRewrite(string $path, string $whatIfMissing = 'file missing'): array
    {
        return self::toArrays(self::decode($path, $whatIfMissing), true);
    }

    private static function decode(string $path, string $whatIfMissing): stdClass|array
    {
        // A directory opens on Linux and reads as empty: only a regular file can hold the JSON.
        $json = is_file($path) ? @file_get_contents($path) : false;
        if ($json === false) {
            throw IoError::cannotRead($path, $whatIfMissing);
        }
        try {
            $data = json_decode($json, false, 64, JSON_THROW_ON_ERROR);
        } catch (JsonException $e) {
            throw IoError::cannotRead($path, $e->getMessage());
        }
        if (!$data instanceof stdClass && !is_array($data)) {
            throw IoError::cannotRead($path, 'expected a JSON object, got ' . get_debug_type($data));
        }
        return $data;
    }

    /** @return array<mixed> */
    private static function toArrays(stdClass|array $value, bool $keepEmptyObjects): array
    {
        $convert = static function (mixed $item) use (&$convert, $keepEmptyObjects): mixed {
            if ($item instanceof stdClass) {
                $fields = get_object_vars($item);
                return $fields === [] && $keepEmptyObjects ? $item : array_map($convert, $fields);
            }
            return is_array($item) ? array_map($convert, $item) : $item;
        };
        return $value instanceof stdClass ? array_map($convert, get_object_vars($value)) : array_map($convert, $value);
    }
}
