<?php

declare(strict_types=1);

namespace PhpCryptoBench\Exception;

use LogicException;

/** Cases sampled in rotation must agree on the key columns they are said to share: a page pairs them on those. */
final class InvalidInterleaving extends LogicException implements BenchException
{
    /** @param array<string, int|string|null> $first @param array<string, int|string|null> $other */
    public static function membersDisagree(string $column, array $first, array $other): self
    {
        return new self(sprintf(
            'cases interleaved by "%s" must share its value: expected %s (as %s), got %s (%s)',
            $column,
            var_export($first[$column] ?? null, true),
            json_encode($first, JSON_UNESCAPED_SLASHES),
            var_export($other[$column] ?? null, true),
            json_encode($other, JSON_UNESCAPED_SLASHES),
        ));
    }

    /** @param list<string> $by */
    public static function noCases(array $by): self
    {
        return new self(sprintf('expected at least one case to interleave by [%s], got none', implode(', ', $by)));
    }

    public static function tooFewToRotate(int $count): self
    {
        return new self(sprintf('expected at least two cases to measure in rotation, got %d', $count));
    }
}
