<?php

declare(strict_types=1);

namespace PhpCryptoBench\Harness;

/**
 * How an experiment's cases are grouped for sampling in rotation: the cases written to $table
 * that share their values of the key columns $by (e.g. AEAD's operation, payload and AAD size) are
 * one group. The manifest records it, so the build pairs sample r of one case with sample r of
 * another only where they were taken in the same round.
 */
final class Interleaving
{
    /** @param list<string> $by */
    public function __construct(
        public readonly string $table,
        public readonly array $by,
    ) {
    }
}
