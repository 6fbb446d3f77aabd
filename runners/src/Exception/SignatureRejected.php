<?php

declare(strict_types=1);

namespace PhpCryptoBench\Exception;

use RuntimeException;

final class SignatureRejected extends RuntimeException implements BenchException
{
    public static function length(string $algorithm, int $expected, int $actual): self
    {
        return new self(sprintf('%s: expected a %d-byte signature, got %d bytes', $algorithm, $expected, $actual));
    }

    public static function mismatch(string $algorithm): self
    {
        return new self(sprintf('%s: expected a signature that verifies with the key, got one that does not', $algorithm));
    }

    public static function signingFailed(string $algorithm, string $reason): self
    {
        return new self(sprintf('%s: expected a signature, signing failed: %s', $algorithm, $reason === '' ? 'no error text' : $reason));
    }
}
