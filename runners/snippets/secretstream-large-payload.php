<?php

declare(strict_types=1);

/*
 * A large payload (a file, a backup, an upload) encrypted in chunks with libsodium's secretstream
 * (XChaCha20-Poly1305, ext-sodium): memory stays at one chunk whatever the size, each chunk is
 * authenticated as it is read, and the last chunk carries the FINAL tag. The chunks are chained, so a
 * stream cut short, reordered, or with a chunk dropped, repeated or appended is refused. Paste the
 * functions; they print nothing and keep no state.
 *
 * The key: 32 random bytes from sodium_crypto_secretstream_xchacha20poly1305_keygen(), made once and
 * kept outside the code and the database (a secrets manager). Never a password. libsodium starts each
 * stream with a random 24-byte header (its nonce), written in front of the chunks: one key can encrypt
 * any number of streams. $associatedData is authenticated with every chunk but not encrypted: bind the
 * stream to its place (e.g. "backups/2026-01-31.tar"). Use the same value, and the same $chunkBytes,
 * to decrypt it.
 *
 * The format: header (24 bytes) ‖ chunks of $chunkBytes + 17 bytes each (the last one shorter, and
 * never absent): the chunk encrypted, its tag byte encrypted, and a 16-byte MAC.
 *
 * Decryption writes each chunk to $output once it is authenticated, but only the FINAL tag proves that
 * the stream is whole: use the output only after secretstream_decrypt() has returned (write it to a
 * temporary file, and move that into place afterwards).
 *
 *   secretstream_encrypt($input, $output, $associatedData, $key);  // e.g. fopen($path, 'rb'), fopen($path . '.enc', 'wb')
 *   secretstream_decrypt($input, $output, $associatedData, $key);  // throws unless whole and intact
 *
 * PHPUnit runs this file: runners/tests/Snippets/SecretstreamLargePayloadTest.php (phpcrypto-bench),
 * and the benchmark times its libsodium calls on 64 KiB chunks in memory against one
 * sodium_crypto_aead_xchacha20poly1305_ietf_encrypt() call on the whole payload (aead experiment).
 */

/**
 * @param resource $input read to its end
 * @param resource $output written the stream: header ‖ chunks
 */
function secretstream_encrypt($input, $output, string $associatedData, #[\SensitiveParameter] string $key, int $chunkBytes = 65536): void
{
    secretstream_check($input, $output, $key, $chunkBytes);
    [$state, $header] = sodium_crypto_secretstream_xchacha20poly1305_init_push($key);
    secretstream_write($output, $header);
    $chunk = secretstream_read($input, $chunkBytes);
    do {
        // One chunk ahead: the last chunk (even an empty one) is known when it is sealed, and gets FINAL.
        $next = secretstream_read($input, $chunkBytes);
        $tag = $next === '' ? SODIUM_CRYPTO_SECRETSTREAM_XCHACHA20POLY1305_TAG_FINAL : SODIUM_CRYPTO_SECRETSTREAM_XCHACHA20POLY1305_TAG_MESSAGE;
        secretstream_write($output, sodium_crypto_secretstream_xchacha20poly1305_push($state, $chunk, $associatedData, $tag));
        $chunk = $next;
    } while ($tag !== SODIUM_CRYPTO_SECRETSTREAM_XCHACHA20POLY1305_TAG_FINAL);
    sodium_memzero($state);
}

/**
 * @param resource $input a stream secretstream_encrypt() wrote, read to its end
 * @param resource $output written the plaintext, chunk by chunk: use it only once this function has returned
 * @throws RuntimeException when the stream was changed, cut short, extended, or encrypted with another key, other associated data or another chunk size
 */
function secretstream_decrypt($input, $output, string $associatedData, #[\SensitiveParameter] string $key, int $chunkBytes = 65536): void
{
    secretstream_check($input, $output, $key, $chunkBytes);
    $header = secretstream_read($input, SODIUM_CRYPTO_SECRETSTREAM_XCHACHA20POLY1305_HEADERBYTES);
    if (strlen($header) !== SODIUM_CRYPTO_SECRETSTREAM_XCHACHA20POLY1305_HEADERBYTES) {
        throw new RuntimeException('the stream could not be authenticated');
    }
    $state = sodium_crypto_secretstream_xchacha20poly1305_init_pull($header, $key);
    do {
        $chunk = secretstream_read($input, $chunkBytes + SODIUM_CRYPTO_SECRETSTREAM_XCHACHA20POLY1305_ABYTES);
        // An empty read before the FINAL tag: the stream was cut short.
        $opened = $chunk === '' ? false : sodium_crypto_secretstream_xchacha20poly1305_pull($state, $chunk, $associatedData);
        if ($opened === false) {
            throw new RuntimeException('the stream could not be authenticated');
        }
        [$plaintext, $tag] = $opened;
        // Only the two tags secretstream_encrypt() writes; a REKEY or PUSH tag is not from it.
        if ($tag !== SODIUM_CRYPTO_SECRETSTREAM_XCHACHA20POLY1305_TAG_MESSAGE && $tag !== SODIUM_CRYPTO_SECRETSTREAM_XCHACHA20POLY1305_TAG_FINAL) {
            throw new RuntimeException('the stream could not be authenticated');
        }
        secretstream_write($output, $plaintext);
    } while ($tag !== SODIUM_CRYPTO_SECRETSTREAM_XCHACHA20POLY1305_TAG_FINAL);
    sodium_memzero($state);
    // Nothing may follow the FINAL chunk.
    if (secretstream_read($input, 1) !== '') {
        throw new RuntimeException('the stream could not be authenticated');
    }
}

/** @param resource $input */
function secretstream_read($input, int $bytes): string
{
    // fread() may return less than asked of a pipe or a socket before the end: read until the count or the end.
    $read = '';
    while (strlen($read) < $bytes && !feof($input)) {
        $part = fread($input, $bytes - strlen($read));
        if ($part === false) {
            throw new RuntimeException('could not read the input stream');
        }
        $read .= $part;
    }
    return $read;
}

/** @param resource $output */
function secretstream_write($output, string $bytes): void
{
    for ($written = 0; $written < strlen($bytes); $written += $count) {
        $count = fwrite($output, substr($bytes, $written));
        if ($count === false || $count === 0) {
            throw new RuntimeException('could not write the output stream');
        }
    }
}

/**
 * @param mixed $input
 * @param mixed $output
 */
function secretstream_check($input, $output, #[\SensitiveParameter] string $key, int $chunkBytes): void
{
    if (!is_resource($input) || !is_resource($output)) {
        throw new InvalidArgumentException(sprintf('expected two open streams, got %s and %s', get_debug_type($input), get_debug_type($output)));
    }
    // A key of another length is a bug (hex or base64 text, a password): refuse it, never stretch or cut it.
    if (strlen($key) !== SODIUM_CRYPTO_SECRETSTREAM_XCHACHA20POLY1305_KEYBYTES) {
        throw new InvalidArgumentException(sprintf('expected a 32-byte key, got %d bytes', strlen($key)));
    }
    if ($chunkBytes < 1) {
        throw new InvalidArgumentException(sprintf('expected chunks of at least 1 byte, got %d', $chunkBytes));
    }
}
