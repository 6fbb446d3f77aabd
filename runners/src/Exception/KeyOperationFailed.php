<?php

declare(strict_types=1);

namespace PhpCryptoBench\Exception;

use RuntimeException;

/** OpenSSL or sodium refused to generate a key, sign, verify or derive. */
final class KeyOperationFailed extends RuntimeException implements BenchException
{
    public static function of(string $scheme, string $operation, string $reason): self
    {
        return new self(sprintf('%s: expected %s to succeed, it failed: %s', $scheme, $operation, $reason === '' ? 'no error text' : $reason));
    }

    public static function unreadableParameters(string $curve, string $reason): self
    {
        return new self(sprintf("%s: expected the curve's explicit parameters from `openssl ec`, got: %s", $curve, $reason));
    }
}
