<?php

declare(strict_types=1);

namespace PhpCryptoBench\Exception;

use InvalidArgumentException;

/** An Argon2 parameter outside what RFC 9106 (or the interface measured) allows. */
final class InvalidArgon2Parameter extends InvalidArgumentException implements BenchException
{
    public static function outOfRange(string $name, string $expected, int $actual): self
    {
        return new self(sprintf('%s: expected %s, got %d', $name, $expected, $actual));
    }

    public static function unknown(string $name, string $expected, string $actual): self
    {
        return new self(sprintf('%s: expected %s, got "%s"', $name, $expected, $actual));
    }
}
