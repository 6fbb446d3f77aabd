<?php

declare(strict_types=1);

/*
 * Authenticated encryption with libsodium's XChaCha20-Poly1305 (ext-sodium): the simplest safe
 * choice in PHP. Paste the two functions; they print nothing and keep no state.
 *
 * The key: 32 random bytes, made once with sodium_crypto_aead_xchacha20poly1305_ietf_keygen() and
 * kept outside the code and the database (a secrets manager, or an environment variable holding it
 * base64-encoded). Never a password: a password is not a key.
 *
 * Each message gets a fresh random 24-byte nonce, so random nonces never repeat in practice; the
 * nonce is not secret and travels in front of the ciphertext. $associatedData is authenticated but
 * not encrypted: bind each message to its place (e.g. "users.email:42") so that it cannot be moved
 * to another row or field unnoticed. Use the same value to open it.
 *
 *   $sealed = xchacha20poly1305_seal($plaintext, $associatedData, $key);
 *   $plaintext = xchacha20poly1305_open($sealed, $associatedData, $key); // throws unless intact
 *
 * PHPUnit runs this file: runners/tests/Snippets/AeadXchacha20poly1305Test.php (phpcrypto-bench).
 */

/** @return string nonce (24 bytes) ‖ ciphertext ‖ tag (16 bytes) */
function xchacha20poly1305_seal(string $plaintext, string $associatedData, #[\SensitiveParameter] string $key): string
{
    xchacha20poly1305_check_key($key);
    $nonce = random_bytes(SODIUM_CRYPTO_AEAD_XCHACHA20POLY1305_IETF_NPUBBYTES);
    return $nonce . sodium_crypto_aead_xchacha20poly1305_ietf_encrypt($plaintext, $associatedData, $nonce, $key);
}

/** @throws RuntimeException when the message was changed, cut, or sealed with another key or other associated data */
function xchacha20poly1305_open(string $sealed, string $associatedData, #[\SensitiveParameter] string $key): string
{
    xchacha20poly1305_check_key($key);
    $nonceBytes = SODIUM_CRYPTO_AEAD_XCHACHA20POLY1305_IETF_NPUBBYTES;
    // Shorter than a nonce and a tag: nothing to authenticate.
    if (strlen($sealed) < $nonceBytes + SODIUM_CRYPTO_AEAD_XCHACHA20POLY1305_IETF_ABYTES) {
        throw new RuntimeException('the message could not be authenticated');
    }
    $nonce = substr($sealed, 0, $nonceBytes);
    $plaintext = sodium_crypto_aead_xchacha20poly1305_ietf_decrypt(substr($sealed, $nonceBytes), $associatedData, $nonce, $key);
    if ($plaintext === false) {
        // One answer for every failure: which part was wrong is no business of whoever sent it.
        throw new RuntimeException('the message could not be authenticated');
    }
    return $plaintext;
}

function xchacha20poly1305_check_key(#[\SensitiveParameter] string $key): void
{
    // A key of another length is a bug (hex or base64 text, a password): refuse it, never stretch or cut it.
    if (strlen($key) !== SODIUM_CRYPTO_AEAD_XCHACHA20POLY1305_IETF_KEYBYTES) {
        throw new InvalidArgumentException(sprintf('expected a %d-byte key, got %d bytes', SODIUM_CRYPTO_AEAD_XCHACHA20POLY1305_IETF_KEYBYTES, strlen($key)));
    }
}
