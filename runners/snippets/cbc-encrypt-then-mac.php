<?php

declare(strict_types=1);

/*
 * AES-256-CBC made safe to decrypt: encrypt-then-MAC with HMAC-SHA-256, for data that must stay CBC
 * (a format another system reads). For anything new prefer an AEAD (aead-xchacha20poly1305.php): it
 * does all of this in one call. Paste the four functions; they print nothing and keep no state.
 *
 * The key: 32 random bytes from random_bytes(32), made once and kept outside the code and the database
 * (a secrets manager, or an environment variable holding it base64-encoded). Never a password. HKDF-SHA-256
 * derives two keys from it, one to encrypt and one to authenticate: one key must never do both.
 *
 * Sealing draws a random 16-byte IV, encrypts with PKCS#7 padding, then computes HMAC-SHA-256 over the
 * length of $associatedData (8 bytes), $associatedData, the IV and the ciphertext, and appends all 32
 * bytes of it. Opening checks that tag with hash_equals() (its time does not depend on where the bytes
 * differ) BEFORE anything is decrypted: a changed message never reaches the padding check, so there is
 * no padding oracle, and the same error stands for every failure. $associatedData is authenticated but
 * not encrypted: bind each message to its place (e.g. "users.email:42"). Use the same value to open it.
 *
 *   $sealed = cbc_hmac_seal($plaintext, $associatedData, $key);
 *   $plaintext = cbc_hmac_open($sealed, $associatedData, $key); // throws unless intact
 *
 * PHPUnit runs this file: runners/tests/Snippets/CbcEncryptThenMacTest.php (phpcrypto-bench).
 */

/** @return string IV (16 bytes) ‖ ciphertext (whole 16-byte blocks) ‖ tag (32 bytes) */
function cbc_hmac_seal(string $plaintext, string $associatedData, #[\SensitiveParameter] string $key): string
{
    ['encryption' => $encryptionKey, 'authentication' => $authenticationKey] = cbc_hmac_keys($key);
    $iv = random_bytes(16);
    $ciphertext = openssl_encrypt($plaintext, 'aes-256-cbc', $encryptionKey, OPENSSL_RAW_DATA, $iv);
    if ($ciphertext === false) {
        throw new RuntimeException('openssl_encrypt() failed: ' . openssl_error_string());
    }
    return $iv . $ciphertext . cbc_hmac_tag($iv . $ciphertext, $associatedData, $authenticationKey);
}

/** @throws RuntimeException when the message was changed, cut, or sealed with another key or other associated data */
function cbc_hmac_open(string $sealed, string $associatedData, #[\SensitiveParameter] string $key): string
{
    ['encryption' => $encryptionKey, 'authentication' => $authenticationKey] = cbc_hmac_keys($key);
    // An IV, at least one block and the whole tag; nothing else is a message this function sealed.
    if (strlen($sealed) < 16 + 16 + 32 || (strlen($sealed) - 16 - 32) % 16 !== 0) {
        throw new RuntimeException('the message could not be authenticated');
    }
    $ivAndCiphertext = substr($sealed, 0, -32);
    if (!hash_equals(cbc_hmac_tag($ivAndCiphertext, $associatedData, $authenticationKey), substr($sealed, -32))) {
        throw new RuntimeException('the message could not be authenticated');
    }
    // Only now, with the message proven unchanged, is it decrypted.
    $plaintext = openssl_decrypt(substr($ivAndCiphertext, 16), 'aes-256-cbc', $encryptionKey, OPENSSL_RAW_DATA, substr($ivAndCiphertext, 0, 16));
    if ($plaintext === false) {
        throw new RuntimeException('the message could not be authenticated');
    }
    return $plaintext;
}

/** HMAC-SHA-256 over len(associated data) ‖ associated data ‖ IV ‖ ciphertext: the length keeps the two apart. */
function cbc_hmac_tag(string $ivAndCiphertext, string $associatedData, #[\SensitiveParameter] string $authenticationKey): string
{
    return hash_hmac('sha256', pack('J', strlen($associatedData)) . $associatedData . $ivAndCiphertext, $authenticationKey, true);
}

/** @return array{encryption: string, authentication: string} two 32-byte keys, each for one purpose */
function cbc_hmac_keys(#[\SensitiveParameter] string $key): array
{
    // A key of another length is a bug (hex or base64 text, a password): refuse it, never stretch or cut it.
    if (strlen($key) !== 32) {
        throw new InvalidArgumentException(sprintf('expected a 32-byte key, got %d bytes', strlen($key)));
    }
    return [
        'encryption' => hash_hkdf('sha256', $key, 32, 'aes-256-cbc encryption'),
        'authentication' => hash_hkdf('sha256', $key, 32, 'hmac-sha-256 authentication'),
    ];
}
