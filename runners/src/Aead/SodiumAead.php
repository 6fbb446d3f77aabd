<?php

declare(strict_types=1);

namespace PhpCryptoBench\Aead;

use PhpCryptoBench\Exception\InvalidAeadParameter;

/** libsodium's AEAD constructions: fixed nonce lengths, 16-byte tags, ciphertext and tag joined. */
final class SodiumAead implements BulkAead
{
    private const TAG_BYTES = 16;

    /** construction => [key bytes, nonce bytes] */
    private const CONSTRUCTIONS = [
        'aes256gcm' => [SODIUM_CRYPTO_AEAD_AES256GCM_KEYBYTES, SODIUM_CRYPTO_AEAD_AES256GCM_NPUBBYTES],
        'chacha20poly1305-ietf' => [SODIUM_CRYPTO_AEAD_CHACHA20POLY1305_IETF_KEYBYTES, SODIUM_CRYPTO_AEAD_CHACHA20POLY1305_IETF_NPUBBYTES],
        'xchacha20poly1305-ietf' => [SODIUM_CRYPTO_AEAD_XCHACHA20POLY1305_IETF_KEYBYTES, SODIUM_CRYPTO_AEAD_XCHACHA20POLY1305_IETF_NPUBBYTES],
    ];

    private readonly int $keyBytes;
    private readonly int $nonceBytes;

    public function __construct(private readonly string $construction)
    {
        if (!isset(self::CONSTRUCTIONS[$construction])) {
            throw InvalidAeadParameter::unsupported('sodium-' . $construction, 'unknown libsodium construction');
        }
        $reason = self::unavailableReason($construction);
        if ($reason !== null) {
            throw InvalidAeadParameter::unsupported('sodium-' . $construction, $reason);
        }
        [$this->keyBytes, $this->nonceBytes] = self::CONSTRUCTIONS[$construction];
    }

    /** For test vectors: the construction, if it uses exactly these lengths. */
    public static function withLengths(string $construction, int $nonceBytes, int $tagBytes): self
    {
        $aead = new self($construction);
        if ($nonceBytes !== $aead->nonceBytes) {
            throw InvalidAeadParameter::nonceLength($aead->name(), (string) $aead->nonceBytes, $nonceBytes);
        }
        if ($tagBytes !== self::TAG_BYTES) {
            throw InvalidAeadParameter::tagLength($aead->name(), (string) self::TAG_BYTES, $tagBytes);
        }
        return $aead;
    }

    public static function unavailableReason(string $construction): ?string
    {
        if ($construction === 'aes256gcm' && !sodium_crypto_aead_aes256gcm_is_available()) {
            return 'libsodium offers AES-256-GCM only on CPUs with AES-NI and PCLMULQDQ';
        }
        return null;
    }

    public function name(): string
    {
        return 'sodium-' . $this->construction;
    }

    public function library(): string
    {
        return 'sodium';
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
        return self::TAG_BYTES;
    }

    public function encrypt(string $plaintext, string $key, string $nonce, string $aad): Sealed
    {
        $this->checkLengths($key, $nonce);
        $joined = match ($this->construction) {
            'aes256gcm' => sodium_crypto_aead_aes256gcm_encrypt($plaintext, $aad, $nonce, $key),
            'chacha20poly1305-ietf' => sodium_crypto_aead_chacha20poly1305_ietf_encrypt($plaintext, $aad, $nonce, $key),
            'xchacha20poly1305-ietf' => sodium_crypto_aead_xchacha20poly1305_ietf_encrypt($plaintext, $aad, $nonce, $key),
        };
        return Sealed::combined($joined, self::TAG_BYTES);
    }

    public function decrypt(Sealed $sealed, string $key, string $nonce, string $aad): ?string
    {
        $this->checkLengths($key, $nonce);
        $joined = $sealed->joined();
        if (strlen($joined) < self::TAG_BYTES || strlen($sealed->tag()) !== self::TAG_BYTES) {
            return null;
        }
        $plaintext = match ($this->construction) {
            'aes256gcm' => sodium_crypto_aead_aes256gcm_decrypt($joined, $aad, $nonce, $key),
            'chacha20poly1305-ietf' => sodium_crypto_aead_chacha20poly1305_ietf_decrypt($joined, $aad, $nonce, $key),
            'xchacha20poly1305-ietf' => sodium_crypto_aead_xchacha20poly1305_ietf_decrypt($joined, $aad, $nonce, $key),
        };
        return $plaintext === false ? null : $plaintext;
    }

    public function encryptMany(string $plaintext, string $key, string $noncePrefix, int $firstCounter, int $count, string $aad): Sealed
    {
        $this->checkLengths($key, $noncePrefix . pack('J', $firstCounter));
        $messages = max($count, 1);
        $joined = '';
        // One loop per construction: the library call is named, not looked up, in every iteration.
        switch ($this->construction) {
            case 'aes256gcm':
                for ($i = 0; $i < $messages; $i++) {
                    $joined = sodium_crypto_aead_aes256gcm_encrypt($plaintext, $aad, $noncePrefix . pack('J', $firstCounter + $i), $key);
                }
                break;
            case 'chacha20poly1305-ietf':
                for ($i = 0; $i < $messages; $i++) {
                    $joined = sodium_crypto_aead_chacha20poly1305_ietf_encrypt($plaintext, $aad, $noncePrefix . pack('J', $firstCounter + $i), $key);
                }
                break;
            default:
                for ($i = 0; $i < $messages; $i++) {
                    $joined = sodium_crypto_aead_xchacha20poly1305_ietf_encrypt($plaintext, $aad, $noncePrefix . pack('J', $firstCounter + $i), $key);
                }
        }
        return Sealed::combined($joined, self::TAG_BYTES);
    }

    public function decryptMany(Sealed $sealed, string $key, string $nonce, string $aad, int $count): ?string
    {
        $this->checkLengths($key, $nonce);
        $messages = max($count, 1);
        $joined = $sealed->joined();
        if (strlen($joined) < self::TAG_BYTES || strlen($sealed->tag()) !== self::TAG_BYTES) {
            return null;
        }
        $plaintext = false;
        for ($i = 0; $i < $messages; $i++) {
            $plaintext = match ($this->construction) {
                'aes256gcm' => sodium_crypto_aead_aes256gcm_decrypt($joined, $aad, $nonce, $key),
                'chacha20poly1305-ietf' => sodium_crypto_aead_chacha20poly1305_ietf_decrypt($joined, $aad, $nonce, $key),
                'xchacha20poly1305-ietf' => sodium_crypto_aead_xchacha20poly1305_ietf_decrypt($joined, $aad, $nonce, $key),
            };
            if ($plaintext === false) {
                return null;
            }
        }
        return $plaintext;
    }

    private function checkLengths(string $key, string $nonce): void
    {
        if (strlen($key) !== $this->keyBytes) {
            throw InvalidAeadParameter::keyLength($this->name(), $this->keyBytes, strlen($key));
        }
        if (strlen($nonce) !== $this->nonceBytes) {
            throw InvalidAeadParameter::nonceLength($this->name(), (string) $this->nonceBytes, strlen($nonce));
        }
    }
}
