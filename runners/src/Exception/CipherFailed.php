<?php

declare(strict_types=1);

namespace PhpCryptoBench\Exception;

use RuntimeException;

final class CipherFailed extends RuntimeException implements BenchException
{
    public static function encrypt(string $cipher, string $reason): self
    {
        return new self(sprintf('%s: expected a ciphertext, encryption failed: %s', $cipher, $reason === '' ? 'no error text' : $reason));
    }

    public static function decrypt(string $cipher, string $reason): self
    {
        return new self(sprintf('%s: expected a plaintext, decryption failed: %s', $cipher, $reason === '' ? 'no error text' : $reason));
    }

    public static function unknown(string $cipher, string $engine): self
    {
        return new self(sprintf('%s: not offered by %s', $cipher, $engine));
    }
}
