<?php

declare(strict_types=1);

namespace PhpCryptoBench\Aead;

use PhpCryptoBench\Exception\InvalidAeadParameter;

interface AeadAlgorithm
{
    /** The name in the CSV: OpenSSL's cipher name, or sodium-<construction>. */
    public function name(): string;

    /** openssl|sodium */
    public function library(): string;

    public function keyBytes(): int;

    public function nonceBytes(): int;

    public function tagBytes(): int;

    /** @throws InvalidAeadParameter for a key or nonce of the wrong length */
    public function encrypt(string $plaintext, string $key, string $nonce, string $aad): Sealed;

    /**
     * @return string|null the plaintext, or null when authentication fails or the tag is not exactly tagBytes() long
     * @throws InvalidAeadParameter for a key or nonce of the wrong length
     */
    public function decrypt(Sealed $sealed, string $key, string $nonce, string $aad): ?string;
}
