<?php

declare(strict_types=1);

namespace PhpCryptoBench\Exception;

use RuntimeException;

final class IoError extends RuntimeException implements BenchException
{
    public static function cannotWrite(string $path, string $reason): self
    {
        return new self(sprintf('cannot write %s: %s', $path, $reason));
    }

    public static function cannotCreateDirectory(string $path): self
    {
        return new self(sprintf('cannot create directory %s', $path));
    }

    public static function cannotRead(string $path, string $reason): self
    {
        return new self(sprintf('cannot read %s: %s', $path, $reason));
    }

    /** @param list<string> $declared */
    public static function undeclaredTable(string $name, array $declared): self
    {
        return new self(sprintf('no table schema declares %s; expected one of: %s', $name, implode(', ', $declared)));
    }

    /** @param list<string> $declared */
    public static function undeclaredExperiment(string $experiment, array $declared): self
    {
        return new self(sprintf('no table schema declares experiment %s; expected one of: %s', $experiment, implode(', ', $declared)));
    }

    public static function notAResumableRun(string $dir): self
    {
        return new self(sprintf('cannot resume %s: expected a manifest.json there, found none', $dir));
    }

    public static function otherSchemaVersion(string $dir, mixed $found, int $expected): self
    {
        return new self(sprintf(
            'cannot resume %s: it was written under schema version %s and this runner writes version %d; start a new run',
            $dir,
            is_int($found) ? (string) $found : var_export($found, true),
            $expected,
        ));
    }

    public static function runDirectoryNotEmpty(string $dir): self
    {
        return new self(sprintf('output directory %s already holds a run; pass --resume to finish it', $dir));
    }
}
