<?php

declare(strict_types=1);

namespace PhpCryptoBench\Exception;

use RuntimeException;

/** PKCS#7 padding that does not check out: the ciphertext was altered or the key is wrong. */
final class InvalidPadding extends RuntimeException implements BenchException
{
    public static function length(int $blockBytes, int $actual): self
    {
        return new self(sprintf('expected a non-empty multiple of %d bytes, got %d', $blockBytes, $actual));
    }

    public static function padByte(int $blockBytes, int $actual): self
    {
        return new self(sprintf('expected a final pad byte of 1..%d, got %d', $blockBytes, $actual));
    }

    public static function inconsistent(int $padBytes): self
    {
        return new self(sprintf('expected the last %d bytes to equal %d, they differ', $padBytes, $padBytes));
    }
}
