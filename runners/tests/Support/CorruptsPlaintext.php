<?php

declare(strict_types=1);

namespace PhpCryptoBench\Tests\Support;

use PhpCryptoBench\Aead\AeadAlgorithm;
use PhpCryptoBench\Aead\Sealed;

/** A wrapper whose decryption hands back a plaintext with one bit changed. */
final class CorruptsPlaintext implements AeadAlgorithm
{
    public function __construct(private readonly AeadAlgorithm $inner)
    {
    }

    public function name(): string
    {
        return 'corrupting-' . $this->inner->name();
    }

    public function library(): string
    {
        return $this->inner->library();
    }

    public function keyBytes(): int
    {
        return $this->inner->keyBytes();
    }

    public function nonceBytes(): int
    {
        return $this->inner->nonceBytes();
    }

    public function tagBytes(): int
    {
        return $this->inner->tagBytes();
    }

    public function encrypt(string $plaintext, string $key, string $nonce, string $aad): Sealed
    {
        return $this->inner->encrypt($plaintext, $key, $nonce, $aad);
    }

    public function decrypt(Sealed $sealed, string $key, string $nonce, string $aad): ?string
    {
        $plaintext = $this->inner->decrypt($sealed, $key, $nonce, $aad);
        return $plaintext === null || $plaintext === '' ? $plaintext : ($plaintext[0] ^ "\x01") . substr($plaintext, 1);
    }
}
