<?php

declare(strict_types=1);

namespace PhpCryptoBench\Aead;

use PhpCryptoBench\Environment\PhpFeatures;
use PhpCryptoBench\Exception\InvalidAeadParameter;

/** AES-GCM, AES-CCM and ChaCha20-Poly1305 through ext-openssl, with the length checks PHP leaves out. */
final class OpensslAead implements BulkAead
{
    /** Lengths each mode may use: [nonce min, nonce max, allowed tag lengths]. */
    private const MODES = [
        // SP 800-38D 5.2.1.2: 96-bit nonces are the norm; OpenSSL takes 1..256 bytes.
        'gcm' => [1, 256, [4, 8, 12, 13, 14, 15, 16]],
        // SP 800-38C A.1: nonce 7..13 bytes, tag 4..16 bytes and even.
        'ccm' => [7, 13, [4, 6, 8, 10, 12, 14, 16]],
        // RFC 8439 2.8: 96-bit nonce, 128-bit tag.
        'chacha20-poly1305' => [12, 12, [16]],
    ];

    private readonly int $keyBytes;

    public function __construct(
        private readonly string $cipher,
        private readonly int $nonceBytes = 12,
        private readonly int $tagBytes = 16,
    ) {
        if (!in_array($cipher, openssl_get_cipher_methods(), true)) {
            throw InvalidAeadParameter::unsupported($cipher, 'not in openssl_get_cipher_methods()');
        }
        [$nonceMin, $nonceMax, $tags] = self::MODES[self::mode($cipher)];
        if ($nonceBytes < $nonceMin || $nonceBytes > $nonceMax) {
            throw InvalidAeadParameter::nonceLength($cipher, $nonceMin . '..' . $nonceMax, $nonceBytes);
        }
        if (!in_array($tagBytes, $tags, true)) {
            throw InvalidAeadParameter::tagLength($cipher, implode('|', $tags), $tagBytes);
        }
        $this->keyBytes = (int) PhpFeatures::cipherKeyLength($cipher);
    }

    private static function mode(string $cipher): string
    {
        foreach (array_keys(self::MODES) as $mode) {
            if (str_ends_with($cipher, $mode)) {
                return $mode;
            }
        }
        throw InvalidAeadParameter::unsupported($cipher, 'not a GCM, CCM or ChaCha20-Poly1305 cipher');
    }

    public function name(): string
    {
        return $this->cipher;
    }

    public function library(): string
    {
        return 'openssl';
    }

    public function keyBytes(): int
    {
        return $this->keyBytes;
    }

    public function nonceBytes(): int
    {
        return $this->nonceBytes;
    }

    public function tagBytes(): int
    {
        return $this->tagBytes;
    }

    public function encrypt(string $plaintext, string $key, string $nonce, string $aad): Sealed
    {
        $this->checkLengths($key, $nonce);
        $tag = '';
        $ciphertext = openssl_encrypt($plaintext, $this->cipher, $key, OPENSSL_RAW_DATA, $nonce, $tag, $aad, $this->tagBytes);
        if ($ciphertext === false) {
            throw InvalidAeadParameter::unsupported($this->cipher, (string) openssl_error_string());
        }
        return Sealed::separate($ciphertext, $tag);
    }

    public function decrypt(Sealed $sealed, string $key, string $nonce, string $aad): ?string
    {
        $this->checkLengths($key, $nonce);
        $tag = $sealed->tag();
        // PHP hands any tag length to OpenSSL, and GCM then accepts a truncated prefix of the tag.
        if (strlen($tag) !== $this->tagBytes) {
            return null;
        }
        $plaintext = openssl_decrypt($sealed->ciphertext(), $this->cipher, $key, OPENSSL_RAW_DATA, $nonce, $tag, $aad);
        return $plaintext === false ? null : $plaintext;
    }

    public function encryptMany(string $plaintext, string $key, string $noncePrefix, int $firstCounter, int $count, string $aad): Sealed
    {
        $this->checkLengths($key, $noncePrefix . pack('J', $firstCounter));
        $messages = max($count, 1);
        $cipher = $this->cipher;
        $tagBytes = $this->tagBytes;
        $ciphertext = false;
        $tag = '';
        for ($i = 0; $i < $messages; $i++) {
            $ciphertext = openssl_encrypt($plaintext, $cipher, $key, OPENSSL_RAW_DATA, $noncePrefix . pack('J', $firstCounter + $i), $tag, $aad, $tagBytes);
            if ($ciphertext === false) {
                throw InvalidAeadParameter::unsupported($cipher, (string) openssl_error_string());
            }
        }
        return Sealed::separate((string) $ciphertext, $tag);
    }

    public function decryptMany(Sealed $sealed, string $key, string $nonce, string $aad, int $count): ?string
    {
        $this->checkLengths($key, $nonce);
        $messages = max($count, 1);
        $tag = $sealed->tag();
        if (strlen($tag) !== $this->tagBytes) {
            return null;
        }
        $cipher = $this->cipher;
        $ciphertext = $sealed->ciphertext();
        $plaintext = false;
        for ($i = 0; $i < $messages; $i++) {
            $plaintext = openssl_decrypt($ciphertext, $cipher, $key, OPENSSL_RAW_DATA, $nonce, $tag, $aad);
            if ($plaintext === false) {
                return null;
            }
        }
        return $plaintext;
    }

    private function checkLengths(string $key, string $nonce): void
    {
        if (strlen($key) !== $this->keyBytes) {
            throw InvalidAeadParameter::keyLength($this->cipher, $this->keyBytes, strlen($key));
        }
        if (strlen($nonce) !== $this->nonceBytes) {
            throw InvalidAeadParameter::nonceLength($this->cipher, (string) $this->nonceBytes, strlen($nonce));
        }
    }
}
