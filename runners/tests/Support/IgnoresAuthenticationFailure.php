<?php

declare(strict_types=1);

namespace PhpCryptoBench\Tests\Support;

use PhpCryptoBench\Aead\AeadAlgorithm;
use PhpCryptoBench\Aead\Sealed;

/** A wrapper with the classic bug: it turns a failed authentication into an empty plaintext. */
final class IgnoresAuthenticationFailure implements AeadAlgorithm
{
    public function __construct(private readonly AeadAlgorithm $inner)
    {
    }

    public function name(): string
    {
        return 'forgiving-' . $this->inner->name();
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
        return $this->inner->decrypt($sealed, $key, $nonce, $aad) ?? '';
    }
}
