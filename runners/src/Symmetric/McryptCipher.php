<?php

declare(strict_types=1);

namespace PhpCryptoBench\Symmetric;

use PhpCryptoBench\Exception\CipherFailed;

/**
 * mcrypt, used correctly: PKCS#7 added and removed explicitly for CBC (mcrypt would pad with
 * zero bytes), never rijndael-256 (a 256-bit block: not AES).
 */
final class McryptCipher implements SymmetricCipher
{
    public function __construct(
        private readonly string $algorithm,
        private readonly string $mcryptMode,
        private readonly int $keyBytes,
    ) {
        if (!extension_loaded('mcrypt')) {
            throw CipherFailed::unknown($algorithm, 'PHP: the mcrypt extension is not loaded');
        }
        if (!in_array($algorithm, mcrypt_list_algorithms(), true) || !in_array($mcryptMode, mcrypt_list_modes(), true)) {
            throw CipherFailed::unknown($algorithm . '-' . $mcryptMode, 'libmcrypt');
        }
    }

    public function engine(): string
    {
        return 'mcrypt';
    }

    public function provider(): string
    {
        return 'builtin';
    }

    public function cipher(): string
    {
        return $this->algorithm;
    }

    public function mode(): string
    {
        return $this->mcryptMode;
    }

    public function keyBits(): int
    {
        return $this->keyBytes * 8;
    }

    public function padding(): string
    {
        return $this->mcryptMode === 'cbc' ? 'pkcs7' : 'none';
    }

    public function ivBytes(): int
    {
        return mcrypt_get_iv_size($this->algorithm, $this->mcryptMode);
    }

    private function blockBytes(): int
    {
        return mcrypt_get_block_size($this->algorithm, $this->mcryptMode);
    }

    public function encrypt(string $plaintext, string $key, string $iv): string
    {
        $input = $this->padding() === 'pkcs7' ? Pkcs7::pad($plaintext, $this->blockBytes()) : $plaintext;
        $ciphertext = mcrypt_encrypt($this->algorithm, $key, $input, $this->mcryptMode, $iv);
        if ($ciphertext === false) {
            throw CipherFailed::encrypt($this->algorithm . '-' . $this->mcryptMode, 'mcrypt_encrypt returned false');
        }
        return $ciphertext;
    }

    public function decrypt(string $ciphertext, string $key, string $iv): string
    {
        $plaintext = mcrypt_decrypt($this->algorithm, $key, $ciphertext, $this->mcryptMode, $iv);
        if ($plaintext === false) {
            throw CipherFailed::decrypt($this->algorithm . '-' . $this->mcryptMode, 'mcrypt_decrypt returned false');
        }
        return $this->padding() === 'pkcs7' ? Pkcs7::unpad($plaintext, $this->blockBytes()) : $plaintext;
    }
}
