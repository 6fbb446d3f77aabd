<?php

declare(strict_types=1);

namespace PhpCryptoBench\Argon2;

/** Makes one Argon2 hash for a cell, and checks one, with a second implementation where this PHP has one (Argon2Verifiers). */
interface CellHasher
{
    public function hash(Argon2Cell $cell): string;

    /** Whether a second look at the hash agrees: null when nothing in this PHP can check it (Argon2d). */
    public function verify(Argon2Cell $cell, string $hash): ?bool;
}
