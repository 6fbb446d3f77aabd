<?php

declare(strict_types=1);

namespace PhpCryptoBench\Aead;

/**
 * libsodium's secretstream (XChaCha20-Poly1305) over a string in memory: the calls
 * runners/snippets/secretstream-large-payload.php makes on a file, chunk by chunk, without the
 * file's reads and writes. Each chunk is a new string; the last carries the FINAL tag.
 */
final class Secretstream
{
    public const NAME = 'sodium-secretstream-xchacha20poly1305';
    /** The snippet's chunk size: what the page's comparison is about. */
    public const CHUNK_BYTES = 65536;
    /** Poly1305's tag of each chunk (secretstream adds one encrypted tag byte to it: ABYTES is 17). */
    public const TAG_BYTES = 16;

    public static function available(): bool
    {
        return extension_loaded('sodium') && function_exists('sodium_crypto_secretstream_xchacha20poly1305_init_push');
    }

    /** @return array{0: string, 1: list<string>} the header and the encrypted chunks, the last FINAL */
    public static function encrypt(string $plaintext, string $key, string $associatedData = '', int $chunkBytes = self::CHUNK_BYTES): array
    {
        [$state, $header] = sodium_crypto_secretstream_xchacha20poly1305_init_push($key);
        $chunks = [];
        $length = strlen($plaintext);
        $offset = 0;
        do {
            $chunk = substr($plaintext, $offset, $chunkBytes);
            $offset += $chunkBytes;
            $tag = $offset >= $length ? SODIUM_CRYPTO_SECRETSTREAM_XCHACHA20POLY1305_TAG_FINAL : SODIUM_CRYPTO_SECRETSTREAM_XCHACHA20POLY1305_TAG_MESSAGE;
            $chunks[] = sodium_crypto_secretstream_xchacha20poly1305_push($state, $chunk, $associatedData, $tag);
        } while ($tag !== SODIUM_CRYPTO_SECRETSTREAM_XCHACHA20POLY1305_TAG_FINAL);
        return [$header, $chunks];
    }

    /**
     * @param list<string> $chunks
     * @return list<string>|null the plaintext chunks; null when a chunk fails, a tag is neither MESSAGE
     *                           nor FINAL, or FINAL is missing or not the last chunk
     */
    public static function decrypt(string $header, array $chunks, string $key, string $associatedData = ''): ?array
    {
        if (strlen($header) !== SODIUM_CRYPTO_SECRETSTREAM_XCHACHA20POLY1305_HEADERBYTES || $chunks === []) {
            return null;
        }
        $state = sodium_crypto_secretstream_xchacha20poly1305_init_pull($header, $key);
        $plaintext = [];
        $last = count($chunks) - 1;
        foreach ($chunks as $index => $chunk) {
            $opened = sodium_crypto_secretstream_xchacha20poly1305_pull($state, $chunk, $associatedData);
            if ($opened === false) {
                return null;
            }
            $final = $opened[1] === SODIUM_CRYPTO_SECRETSTREAM_XCHACHA20POLY1305_TAG_FINAL;
            if ($final !== ($index === $last) || (!$final && $opened[1] !== SODIUM_CRYPTO_SECRETSTREAM_XCHACHA20POLY1305_TAG_MESSAGE)) {
                return null;
            }
            $plaintext[] = $opened[0];
        }
        return $plaintext;
    }
}
