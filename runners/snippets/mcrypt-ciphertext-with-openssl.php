<?php

declare(strict_types=1);

/*
 * Moving off mcrypt: decrypt what mcrypt wrote in CBC mode with ext-openssl, then seal it again under
 * an AEAD and delete the old ciphertext. mcrypt did two things without a word that OpenSSL does not,
 * and both are done here explicitly:
 *
 * - Zero padding. mcrypt filled the last block with zero bytes (an empty plaintext became one block of
 *   them). OpenSSL is told to expect no PKCS#7 padding (OPENSSL_ZERO_PADDING, which despite its name
 *   means "no padding"). mcrypt kept no length, so zero padding is ambiguous wherever the plaintext
 *   itself may end in zero bytes (binary data: images, serialized numbers, keys): "ab\0" and "ab" give
 *   the same ciphertext. So the recipe cuts trailing zero bytes only for text (no $plaintextBytes: a
 *   text never ends in a zero byte); for binary data pass the plaintext's length ($plaintextBytes, as
 *   your records stored it beside the ciphertext, or as the data's own format says), and exactly that
 *   many bytes come back, the rest checked to be zero bytes. Binary data whose length is nowhere: pass
 *   strlen($ciphertext) to keep every byte, padding included, and let the data's own parser end it.
 * - Key padding. A key shorter than the cipher's was padded with zero bytes: for MCRYPT_RIJNDAEL_128
 *   (AES) to the next of 16, 24 or 32 bytes, which also chose the AES variant (a 20-byte key meant
 *   AES-192 with 4 zero bytes). PHP 5.6 and later refuse such keys in mcrypt_encrypt(); data written
 *   before, or through mcrypt_generic_init(), has them. Blowfish took keys of 1 to 56 bytes as they
 *   were, but openssl_decrypt() zero-pads a Blowfish key under 16 bytes, which makes it another key:
 *   OPENSSL_DONT_ZERO_PAD_KEY keeps it as it is.
 *
 * Only CBC, and only 'rijndael-128' (MCRYPT_RIJNDAEL_128, which is AES) and 'blowfish'
 * (MCRYPT_BLOWFISH). MCRYPT_RIJNDAEL_256 is not AES-256 (its block is 32 bytes, AES's 16): OpenSSL has
 * no Rijndael-256, and no key or option makes AES read it. The way out for such data: decrypt each
 * record once with mcrypt itself (PHP 7.1 or older, or the PECL mcrypt extension) or with phpseclib's
 * Rijndael (phpseclib3\Crypt\Rijndael in CBC mode with setBlockLength(256), zero padding off), then
 * seal the plaintext with an AEAD (xchacha20poly1305_seal()) and delete the old ciphertext. Blowfish
 * needs OpenSSL 3's legacy provider: OPENSSL_CONF naming a configuration that activates it
 * (phpcrypto-bench's runners/openssl-legacy.cnf is one).
 *
 * The old key and IV are whatever your mcrypt code used (the IV was often stored in front of the
 * ciphertext). mcrypt ciphertext is not authenticated: a changed message, or the wrong key, decrypts
 * to other bytes, not to an error. So it should not stay: reseal each record once with
 * mcrypt_cbc_reseal(), under a new 32-byte key from sodium_crypto_aead_xchacha20poly1305_ietf_keygen()
 * (kept outside the code and the database), then delete the old ciphertext and, when none is left, the
 * old key. Opening the new record is xchacha20poly1305_open() of aead-xchacha20poly1305.php, which
 * this file needs beside it.
 *
 *   $plaintext = mcrypt_cbc_decrypt($ciphertext, $oldKey, $iv, 'rijndael-128');                 // text
 *   $plaintext = mcrypt_cbc_decrypt($ciphertext, $oldKey, $iv, 'rijndael-128', $plaintextBytes); // binary
 *   $sealed = mcrypt_cbc_reseal($ciphertext, $oldKey, $iv, 'rijndael-128', $associatedData, $newKey, $plaintextBytes);
 *
 * PHPUnit runs this file: runners/tests/Snippets/McryptCiphertextWithOpensslTest.php (phpcrypto-bench).
 */

require_once __DIR__ . '/aead-xchacha20poly1305.php';

/**
 * @param int|null $plaintextBytes the plaintext's length, for binary data; null for text (trailing zero bytes cut)
 * @return string the plaintext, without the zero bytes mcrypt padded it with
 */
function mcrypt_cbc_decrypt(string $ciphertext, #[\SensitiveParameter] string $key, string $iv, string $mcryptCipher, ?int $plaintextBytes = null): string
{
    [$cipher, $opensslKey, $keyOption] = mcrypt_cbc_openssl_parameters($key, $mcryptCipher);
    $blockBytes = openssl_cipher_iv_length($cipher);
    if (strlen($iv) !== $blockBytes) {
        throw new InvalidArgumentException(sprintf('expected a %d-byte IV for %s, got %d bytes', $blockBytes, $mcryptCipher, strlen($iv)));
    }
    // mcrypt wrote whole blocks, at least one: anything else is not its CBC output.
    if ($ciphertext === '' || strlen($ciphertext) % $blockBytes !== 0) {
        throw new InvalidArgumentException(sprintf('expected whole %d-byte blocks, got %d bytes', $blockBytes, strlen($ciphertext)));
    }
    $padded = openssl_decrypt($ciphertext, $cipher, $opensslKey, OPENSSL_RAW_DATA | OPENSSL_ZERO_PADDING | $keyOption, $iv);
    if ($padded === false) {
        throw new RuntimeException('openssl_decrypt() failed: ' . openssl_error_string());
    }
    if ($plaintextBytes === null) {
        return rtrim($padded, "\0");
    }
    // mcrypt added fewer zero bytes than a block (a whole block for an empty plaintext only).
    $paddingBytes = strlen($padded) - $plaintextBytes;
    $fits = $paddingBytes >= 0 && ($paddingBytes < $blockBytes || ($plaintextBytes === 0 && $paddingBytes === $blockBytes));
    if (!$fits || strspn($padded, "\0", $plaintextBytes) !== $paddingBytes) {
        throw new InvalidArgumentException(sprintf('expected %d bytes of plaintext followed by zero padding, %d bytes of CBC output do not end so', $plaintextBytes, strlen($padded)));
    }
    return substr($padded, 0, $plaintextBytes);
}

/**
 * @param int|null $plaintextBytes as for mcrypt_cbc_decrypt(): the length of binary data, null for text
 * @return string nonce (24 bytes) ‖ ciphertext ‖ tag (16 bytes), as xchacha20poly1305_seal() makes it
 */
function mcrypt_cbc_reseal(string $ciphertext, #[\SensitiveParameter] string $oldKey, string $iv, string $mcryptCipher, string $associatedData, #[\SensitiveParameter] string $newKey, ?int $plaintextBytes = null): string
{
    // The old key has been in mcrypt code: it is not the new one.
    if (hash_equals($oldKey, $newKey)) {
        throw new InvalidArgumentException('expected a new key, got the mcrypt key again');
    }
    return xchacha20poly1305_seal(mcrypt_cbc_decrypt($ciphertext, $oldKey, $iv, $mcryptCipher, $plaintextBytes), $associatedData, $newKey);
}

/**
 * What mcrypt did with the key, as OpenSSL's cipher name, the key it used, and the option that keeps it.
 *
 * @return array{0: string, 1: string, 2: int}
 */
function mcrypt_cbc_openssl_parameters(#[\SensitiveParameter] string $key, string $mcryptCipher): array
{
    $keyBytes = strlen($key);
    if ($mcryptCipher === 'rijndael-128') {
        if ($keyBytes < 1 || $keyBytes > 32) {
            throw new InvalidArgumentException(sprintf('expected a key of 1 to 32 bytes for rijndael-128, got %d bytes', $keyBytes));
        }
        // mcrypt's rule: the smallest AES key size that holds the key, the rest zero bytes.
        $aesBytes = $keyBytes <= 16 ? 16 : ($keyBytes <= 24 ? 24 : 32);
        return [sprintf('aes-%d-cbc', 8 * $aesBytes), str_pad($key, $aesBytes, "\0"), 0];
    }
    if ($mcryptCipher === 'blowfish') {
        if ($keyBytes < 1 || $keyBytes > 56) {
            throw new InvalidArgumentException(sprintf('expected a key of 1 to 56 bytes for blowfish, got %d bytes', $keyBytes));
        }
        if (!in_array('bf-cbc', openssl_get_cipher_methods(), true)) {
            throw new RuntimeException("expected OpenSSL to offer bf-cbc, it does not: Blowfish needs OpenSSL 3's legacy provider (set OPENSSL_CONF to a configuration that activates it)");
        }
        return ['bf-cbc', $key, OPENSSL_DONT_ZERO_PAD_KEY];
    }
    if ($mcryptCipher === 'rijndael-256') {
        throw new InvalidArgumentException(
            "expected 'rijndael-128' (MCRYPT_RIJNDAEL_128) or 'blowfish' (MCRYPT_BLOWFISH), got 'rijndael-256': MCRYPT_RIJNDAEL_256 "
            . "is not AES and OpenSSL has no Rijndael-256; decrypt it once with mcrypt or phpseclib's Rijndael and reseal it with an AEAD",
        );
    }
    throw new InvalidArgumentException(sprintf("expected 'rijndael-128' (MCRYPT_RIJNDAEL_128) or 'blowfish' (MCRYPT_BLOWFISH), got '%s'", $mcryptCipher));
}
