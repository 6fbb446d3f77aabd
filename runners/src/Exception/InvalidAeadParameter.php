<?php

declare(strict_types=1);

namespace PhpCryptoBench\Exception;

use InvalidArgumentException;

final class InvalidAeadParameter extends InvalidArgumentException implements BenchException
{
    public static function nonceLength(string $algorithm, string $allowed, int $actual): self
    {
        return new self(sprintf('%s: expected a nonce of %s bytes, got %d', $algorithm, $allowed, $actual));
    }

    public static function tagLength(string $algorithm, string $allowed, int $actual): self
    {
        return new self(sprintf('%s: expected a tag of %s bytes, got %d', $algorithm, $allowed, $actual));
    }

    public static function keyLength(string $algorithm, int $expected, int $actual): self
    {
        return new self(sprintf('%s: expected a key of %d bytes, got %d', $algorithm, $expected, $actual));
    }

    public static function unsupported(string $algorithm, string $reason): self
    {
        return new self(sprintf('%s is not available: %s', $algorithm, $reason));
    }
}
