<?php

declare(strict_types=1);

namespace PhpCryptoBench\Exception;

use RuntimeException;

/** OpenSSL listed a curve name this project has no family or organization for. */
final class UnknownCurve extends RuntimeException implements BenchException
{
    /** @param list<string> $knownPrefixes */
    public static function notClassified(string $curve, array $knownPrefixes): self
    {
        return new self(sprintf('%s: expected a name starting with one of %s, got one this project does not classify', $curve, implode(', ', $knownPrefixes)));
    }
}
