<?php

declare(strict_types=1);

/*
 * Authenticated encryption with AES-256-GCM through ext-openssl, for where libsodium is not an
 * option (prefer aead-xchacha20poly1305.php: GCM's 12-byte nonce allows about 2^32 random nonces per
 * key, and on a CPU without AES instructions it is slower). Paste the three functions; they print
 * nothing and keep no state.
 *
 * The key: 32 random bytes from random_bytes(32), made once and kept outside the code and the
 * database (a secrets manager, or an environment variable holding it base64-encoded). Never a
 * password, and never a key of another length: openssl_encrypt() silently pads a short key with
 * zero bytes and cuts a long one (the trap of code moved from mcrypt), so aes256gcm_check_key()
 * refuses anything but 32 bytes.
 *
 * Each message gets a fresh random 12-byte nonce (never reuse one under a key: GCM then leaks the
 * plaintexts and its authentication key) and the full 16-byte tag. $associatedData is authenticated
 * but not encrypted: bind each message to its place (e.g. "users.email:42"). Use the same value to
 * open it.
 *
 *   $sealed = aes256gcm_seal($plaintext, $associatedData, $key);
 *   $plaintext = aes256gcm_open($sealed, $associatedData, $key); // throws unless intact
 *
 * PHPUnit runs this file: runners/tests/Snippets/Aes256GcmTest.php (phpcrypto-bench).
 */

/** @return string nonce (12 bytes) ‖ tag (16 bytes) ‖ ciphertext */
function aes256gcm_seal(string $plaintext, string $associatedData, #[\SensitiveParameter] string $key): string
{
    aes256gcm_check_key($key);
    $nonce = random_bytes(12);
    $tag = '';
    $ciphertext = openssl_encrypt($plaintext, 'aes-256-gcm', $key, OPENSSL_RAW_DATA, $nonce, $tag, $associatedData, 16);
    if ($ciphertext === false) {
        throw new RuntimeException('openssl_encrypt() failed: ' . openssl_error_string());
    }
    return $nonce . $tag . $ciphertext;
}

/** @throws RuntimeException when the message was changed, cut, or sealed with another key or other associated data */
function aes256gcm_open(string $sealed, string $associatedData, #[\SensitiveParameter] string $key): string
{
    aes256gcm_check_key($key);
    // openssl_decrypt() checks as much of the tag as it is given, even 1 byte: a message cut short
    // would hand it a short tag. The tag must be exactly 16 bytes, so the message at least 28.
    if (strlen($sealed) < 12 + 16) {
        throw new RuntimeException('the message could not be authenticated');
    }
    $nonce = substr($sealed, 0, 12);
    $tag = substr($sealed, 12, 16);
    $plaintext = openssl_decrypt(substr($sealed, 28), 'aes-256-gcm', $key, OPENSSL_RAW_DATA, $nonce, $tag, $associatedData);
    if ($plaintext === false) {
        // One answer for every failure: which part was wrong is no business of whoever sent it.
        throw new RuntimeException('the message could not be authenticated');
    }
    return $plaintext;
}

function aes256gcm_check_key(#[\SensitiveParameter] string $key): void
{
    if (strlen($key) !== 32) {
        throw new InvalidArgumentException(sprintf('expected a 32-byte key, got %d bytes', strlen($key)));
    }
}
