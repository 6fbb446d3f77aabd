<?php

declare(strict_types=1);

namespace PhpCryptoBench\Aead;

/**
 * What seed 002 states about openssl_encrypt's AEAD modes, observed on this PHP: recorded in the
 * manifest's verification (`observed`) so the build can judge those statements from the run.
 * Raw openssl_encrypt/openssl_decrypt calls, as the article makes them; nothing here is timed.
 */
final class ArticleObservations
{
    /** Tag lengths tried: below, inside and above every length either mode allows. */
    private const TAG_BYTES_TRIED = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17];
    /** CCM with PHP's default 12-byte nonce leaves 3 bytes for the message length: 2^24 − 1 at most. */
    private const CCM_LENGTH_FIELD_LIMIT = (1 << 24) - 1;

    /** @return array<string, bool|int|string|null|list<int>|array<string, int>> */
    public static function observe(): array
    {
        return [
            'error_string_after_tag_failure' => self::errorStringAfterTagFailure(),
            'gcm_tag_bytes_accepted' => self::tagBytesAccepted('aes-256-gcm'),
            'ccm_tag_bytes_accepted' => self::tagBytesAccepted('aes-256-ccm'),
            'gcm_shorter_tag_is_prefix' => self::shorterTagIsPrefix('aes-256-gcm'),
            'ccm_shorter_tag_is_prefix' => self::shorterTagIsPrefix('aes-256-ccm'),
            'default_tag_bytes' => ['aes-256-gcm' => self::defaultTagBytes('aes-256-gcm'), 'aes-256-ccm' => self::defaultTagBytes('aes-256-ccm')],
            'ccm_max_message_bytes' => self::ccmMaxMessageBytes(),
        ];
    }

    /**
     * What openssl_error_string() says after openssl_decrypt refused a GCM message whose tag was
     * altered: null when it says nothing (returns false).
     */
    public static function errorStringAfterTagFailure(): ?string
    {
        while (openssl_error_string() !== false) {
            // Empty OpenSSL's error queue, so what follows is this failure's alone.
        }
        $key = random_bytes(32);
        $nonce = random_bytes(12);
        $tag = '';
        $ciphertext = (string) openssl_encrypt('seed 002', 'aes-256-gcm', $key, OPENSSL_RAW_DATA, $nonce, $tag);
        $tag[0] = $tag[0] ^ "\x01";
        if (openssl_decrypt($ciphertext, 'aes-256-gcm', $key, OPENSSL_RAW_DATA, $nonce, $tag) !== false) {
            return 'the altered tag was accepted';
        }
        $message = openssl_error_string();
        return $message === false ? null : $message;
    }

    /** @return list<int> the tag lengths openssl_encrypt makes a tag of */
    public static function tagBytesAccepted(string $cipher): array
    {
        $key = random_bytes(32);
        $nonce = random_bytes(12);
        $accepted = [];
        foreach (self::TAG_BYTES_TRIED as $bytes) {
            $tag = '';
            $ciphertext = @openssl_encrypt('tag length probe', $cipher, $key, OPENSSL_RAW_DATA, $nonce, $tag, '', $bytes);
            if ($ciphertext !== false && strlen($tag) === $bytes) {
                $accepted[] = $bytes;
            }
        }
        return $accepted;
    }

    /** Whether the 12-byte tag of a message is the first 12 bytes of its 16-byte tag (same key, nonce, data). */
    public static function shorterTagIsPrefix(string $cipher): bool
    {
        $key = random_bytes(32);
        $nonce = random_bytes(12);
        $short = $long = '';
        openssl_encrypt('tag prefix probe', $cipher, $key, OPENSSL_RAW_DATA, $nonce, $short, '', 12);
        openssl_encrypt('tag prefix probe', $cipher, $key, OPENSSL_RAW_DATA, $nonce, $long, '', 16);
        return str_starts_with($long, $short);
    }

    public static function defaultTagBytes(string $cipher): int
    {
        $tag = '';
        openssl_encrypt('default tag probe', $cipher, random_bytes(32), OPENSSL_RAW_DATA, random_bytes(12), $tag);
        return strlen($tag);
    }

    /**
     * The longest message aes-256-ccm encrypts with PHP's default (12-byte) nonce, when that is the
     * length field's limit (2^24 − 1 accepted, one byte more refused); null when it is not.
     */
    public static function ccmMaxMessageBytes(): ?int
    {
        $key = random_bytes(32);
        $nonce = random_bytes((int) openssl_cipher_iv_length('aes-256-ccm'));
        $tag = '';
        $atLimit = str_repeat("\0", self::CCM_LENGTH_FIELD_LIMIT);
        $accepted = @openssl_encrypt($atLimit, 'aes-256-ccm', $key, OPENSSL_RAW_DATA, $nonce, $tag) !== false;
        $refused = @openssl_encrypt($atLimit . "\0", 'aes-256-ccm', $key, OPENSSL_RAW_DATA, $nonce, $tag) === false;
        return $accepted && $refused ? self::CCM_LENGTH_FIELD_LIMIT : null;
    }
}
