<?php

declare(strict_types=1);

namespace PhpCryptoBench\Exception;

use RuntimeException;

/** A registered claim that makes the token unusable now (RFC 7519 section 4.1). */
final class ClaimRejected extends RuntimeException implements BenchException
{
    public static function expired(int $exp, int $now): self
    {
        return new self(sprintf('exp: expected a time after now (%d), got %d', $now, $exp));
    }

    public static function notYetValid(int $nbf, int $now): self
    {
        return new self(sprintf('nbf: expected a time at or before now (%d), got %d', $now, $nbf));
    }

    public static function notANumber(string $claim, string $found): self
    {
        return new self(sprintf('%s: expected a NumericDate (an integer), got %s', $claim, $found));
    }
}
