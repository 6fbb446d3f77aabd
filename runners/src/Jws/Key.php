<?php

declare(strict_types=1);

namespace PhpCryptoBench\Jws;

use PhpCryptoBench\Exception\WeakKey;

/**
 * Key material bound to exactly one algorithm (RFC 8725 section 3.1): a token is verified only
 * with the algorithm its key was created for, whatever its header says.
 */
final class Key
{
    private function __construct(
        public readonly Algorithm $algorithm,
        public readonly mixed $material,
        public readonly bool $signs,
    ) {
    }

    /** @throws WeakKey */
    public static function forSigning(Algorithm $algorithm, mixed $material): self
    {
        $algorithm->checkKey($material, true);
        return new self($algorithm, $material, true);
    }

    /** @throws WeakKey */
    public static function forVerification(Algorithm $algorithm, mixed $material): self
    {
        $algorithm->checkKey($material, false);
        return new self($algorithm, $material, false);
    }
}
