<?php

declare(strict_types=1);

namespace PhpCryptoBench\Aead;

use PhpCryptoBench\Exception\VerificationFailed;

/** Every single-bit change and every shortened tag must be rejected; the untouched message must open. */
final class TamperCheck
{
    /** @return list<string> the tamperings that were rejected */
    public function run(AeadAlgorithm $aead): array
    {
        $key = random_bytes($aead->keyBytes());
        $nonce = random_bytes($aead->nonceBytes());
        $aad = random_bytes(16);
        $plaintext = random_bytes(64);
        $sealed = $aead->encrypt($plaintext, $key, $nonce, $aad);
        $ciphertext = $sealed->ciphertext();
        $tag = $sealed->tag();

        $opened = $aead->decrypt($sealed, $key, $nonce, $aad);
        if ($opened !== $plaintext) {
            throw VerificationFailed::roundTripMismatch($aead->name(), strlen($plaintext), strlen((string) $opened));
        }

        $attempts = [
            'a flipped bit in the ciphertext' => [Sealed::separate(self::flip($ciphertext), $tag), $nonce, $aad],
            'a flipped bit in the tag' => [Sealed::separate($ciphertext, self::flip($tag)), $nonce, $aad],
            'a flipped bit in the AAD' => [Sealed::separate($ciphertext, $tag), $nonce, self::flip($aad)],
            'a flipped bit in the nonce' => [Sealed::separate($ciphertext, $tag), self::flip($nonce), $aad],
        ];
        foreach (array_unique([$aead->tagBytes() - 1, 4]) as $kept) {
            if ($kept < $aead->tagBytes()) {
                $attempts[sprintf('the tag truncated to %d bytes', $kept)] = [Sealed::separate($ciphertext, substr($tag, 0, $kept)), $nonce, $aad];
            }
        }
        foreach ($attempts as $tampering => [$candidate, $candidateNonce, $candidateAad]) {
            if ($aead->decrypt($candidate, $key, $candidateNonce, $candidateAad) !== null) {
                throw VerificationFailed::tamperAccepted($aead->name(), $tampering);
            }
        }
        return array_keys($attempts);
    }

    /** Flips one bit at a random position, so the check does not only cover the first byte. */
    private static function flip(string $bytes): string
    {
        $position = random_int(0, strlen($bytes) - 1);
        $bytes[$position] = chr(ord($bytes[$position]) ^ (1 << random_int(0, 7)));
        return $bytes;
    }

    /** Whether PHP's own openssl_decrypt accepts a 4-byte prefix of a GCM tag: the reason for the check above. */
    public static function rawPhpAcceptsTruncatedGcmTag(): bool
    {
        $key = random_bytes(16);
        $nonce = random_bytes(12);
        $tag = '';
        $ciphertext = (string) openssl_encrypt('tag truncation probe', 'aes-128-gcm', $key, OPENSSL_RAW_DATA, $nonce, $tag);
        return openssl_decrypt($ciphertext, 'aes-128-gcm', $key, OPENSSL_RAW_DATA, $nonce, substr($tag, 0, 4)) !== false;
    }
}
