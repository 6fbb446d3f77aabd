<?php

declare(strict_types=1);

namespace PhpCryptoBench\Io;

use PhpCryptoBench\Exception\IoError;
use PhpCryptoBench\Run\ParentWatch;

/**
 * Writes a whole file or nothing: a temporary file in the same directory, flushed, then renamed.
 * A child whose runner is gone (ParentWatch) renames nothing: it exits instead.
 */
final class AtomicFile
{
    public static function write(string $path, string $contents): void
    {
        $directory = dirname($path);
        if (!is_dir($directory) && !@mkdir($directory, 0777, true) && !is_dir($directory)) {
            throw IoError::cannotCreateDirectory($directory);
        }
        $temporary = sprintf('%s/.%s.%s.tmp', $directory, basename($path), bin2hex(random_bytes(6)));
        $handle = @fopen($temporary, 'xb');
        if ($handle === false) {
            throw IoError::cannotWrite($temporary, self::lastError());
        }
        try {
            if (@fwrite($handle, $contents) !== strlen($contents) || !fflush($handle) || !fsync($handle)) {
                throw IoError::cannotWrite($temporary, 'short write: ' . self::lastError());
            }
        } finally {
            fclose($handle);
        }
        if (ParentWatch::orphaned()) {
            @unlink($temporary);
            ParentWatch::exitIfParentGone();
        }
        if (!@rename($temporary, $path)) {
            @unlink($temporary);
            throw IoError::cannotWrite($path, 'rename failed: ' . self::lastError());
        }
    }

    private static function lastError(): string
    {
        return error_get_last()['message'] ?? 'unknown error';
    }
}
