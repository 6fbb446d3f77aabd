<?php

declare(strict_types=1);

namespace PhpCryptoBench\Exception;

use RuntimeException;

/** A key that does not fit the algorithm it is bound to, or is too weak for it (RFC 7518, RFC 8725). */
final class WeakKey extends RuntimeException implements BenchException
{
    public static function rsaTooShort(string $algorithm, int $bits): self
    {
        return new self(sprintf('%s: expected an RSA key of at least 2048 bits, got %d', $algorithm, $bits));
    }

    public static function hmacTooShort(string $algorithm, int $minimumBytes, int $bytes): self
    {
        return new self(sprintf('%s: expected a secret of at least %d bytes (the hash size, RFC 7518 section 3.2), got %d', $algorithm, $minimumBytes, $bytes));
    }

    public static function wrongType(string $algorithm, string $expected, string $actual): self
    {
        return new self(sprintf('%s: expected %s, got %s', $algorithm, $expected, $actual));
    }
}
