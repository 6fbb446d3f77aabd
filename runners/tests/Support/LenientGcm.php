<?php

declare(strict_types=1);

namespace PhpCryptoBench\Tests\Support;

use PhpCryptoBench\Aead\AeadAlgorithm;
use PhpCryptoBench\Aead\Sealed;

/** AES-128-GCM the way PHP does it when nobody checks the tag length: the bug the checks must catch. */
final class LenientGcm implements AeadAlgorithm
{
    public function name(): string
    {
        return 'lenient-aes-128-gcm';
    }

    public function library(): string
    {
        return 'openssl';
    }

    public function keyBytes(): int
    {
        return 16;
    }

    public function nonceBytes(): int
    {
        return 12;
    }

    public function tagBytes(): int
    {
        return 16;
    }

    public function encrypt(string $plaintext, string $key, string $nonce, string $aad): Sealed
    {
        $tag = '';
        $ciphertext = (string) openssl_encrypt($plaintext, 'aes-128-gcm', $key, OPENSSL_RAW_DATA, $nonce, $tag, $aad);
        return Sealed::separate($ciphertext, $tag);
    }

    public function decrypt(Sealed $sealed, string $key, string $nonce, string $aad): ?string
    {
        $plaintext = openssl_decrypt($sealed->ciphertext(), 'aes-128-gcm', $key, OPENSSL_RAW_DATA, $nonce, $sealed->tag(), $aad);
        return $plaintext === false ? null : $plaintext;
    }
}
