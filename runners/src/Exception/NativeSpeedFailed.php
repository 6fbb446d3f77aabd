<?php

declare(strict_types=1);

namespace PhpCryptoBench\Exception;

use RuntimeException;

/** `openssl speed` gave no usable figure for a primitive: a gap in the run, not a crash. */
final class NativeSpeedFailed extends RuntimeException implements BenchException
{
    /** @param list<string> $expected */
    public static function missingOperations(string $command, array $expected, string $found): self
    {
        return new self(sprintf('%s: expected a result for %s, got %s', $command, implode(' and ', $expected), $found === '' ? 'none' : $found));
    }

    public static function repeatedOperation(string $command, string $operation): self
    {
        return new self(sprintf('%s: expected one result for %s, got several', $command, $operation));
    }

    public static function cannotStart(string $binary): self
    {
        return new self(sprintf('expected to start %s, could not', $binary));
    }

    public static function unknownPrimitive(string $what, string $expected, string $actual): self
    {
        return new self(sprintf('native %s: expected %s, got "%s"', $what, $expected, $actual));
    }
}
