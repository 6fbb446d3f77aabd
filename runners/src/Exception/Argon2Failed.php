<?php

declare(strict_types=1);

namespace PhpCryptoBench\Exception;

use RuntimeException;

/** An Argon2 implementation failed to hash: recorded as the cell's result, and the grid goes on. */
final class Argon2Failed extends RuntimeException implements BenchException
{
    public static function cannotStart(string $binary): self
    {
        return new self(sprintf('could not start %s: expected the reference argon2 CLI on the PATH (Debian: argon2)', $binary));
    }

    public static function cliExited(int $status, string $output): self
    {
        return new self(sprintf('argon2 CLI exited with status %d, expected 0 and a PHC string: %s', $status, $output));
    }
}
