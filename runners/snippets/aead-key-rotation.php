<?php

declare(strict_types=1);

/*
 * Encryption keys you can rotate: every message starts with a format version and the id of the key
 * that sealed it, and both are authenticated with it. After a rotation, old messages still open with
 * their old key, new ones are sealed with the new key, and a message can be resealed at leisure.
 *
 * The format (version 1): version (1 byte, 0x01) ‖ key id (4 bytes, big-endian) ‖ nonce (24 bytes) ‖
 * ciphertext ‖ tag (16 bytes). It is XChaCha20-Poly1305 as xchacha20poly1305_seal() of
 * aead-xchacha20poly1305.php makes it (a random nonce per message; that file must be beside this one),
 * with the 5-byte header put in front of $associatedData as the associated data: a changed version or
 * key id fails the tag. A version or key id this code does not know is refused before any decryption,
 * with the same error as a bad tag: every failure to open is one RuntimeException, "the message could
 * not be authenticated", so a caller (or whoever sent the message) cannot tell a retired or unknown key
 * id from a forged message. Log what you need on your side (rotating_key_id() reads the id).
 *
 * The keys: a key ring, key id => 32 random bytes from sodium_crypto_aead_xchacha20poly1305_ietf_keygen(),
 * kept outside the code and the database (a secrets manager). To rotate, add a key under a new id and
 * make it the current one; reseal old messages with rotating_reseal() when convenient; remove a key
 * from the ring only once no message needs it (a message whose key is not in the ring is refused).
 * $associatedData binds each message to its place (e.g. "users.email:42"); use the same value to open it.
 *
 *   $sealed = rotating_seal($plaintext, $associatedData, $keys, $currentKeyId);
 *   $plaintext = rotating_open($sealed, $associatedData, $keys);              // throws unless intact
 *   $sealed = rotating_reseal($sealed, $associatedData, $keys, $currentKeyId); // after a rotation
 *
 * PHPUnit runs this file: runners/tests/Snippets/AeadKeyRotationTest.php (phpcrypto-bench).
 */

require_once __DIR__ . '/aead-xchacha20poly1305.php';

/**
 * @param array<int, string> $keys key id => 32-byte key
 * @return string version (1) ‖ key id (4) ‖ nonce (24) ‖ ciphertext ‖ tag (16)
 */
function rotating_seal(string $plaintext, string $associatedData, #[\SensitiveParameter] array $keys, int $currentKeyId): string
{
    if (!isset($keys[$currentKeyId])) {
        throw new InvalidArgumentException(sprintf('expected the current key id %d in the key ring, found ids %s', $currentKeyId, implode(', ', array_keys($keys)) ?: 'none'));
    }
    $header = rotating_header($currentKeyId);
    return $header . xchacha20poly1305_seal($plaintext, $header . $associatedData, $keys[$currentKeyId]);
}

/**
 * @param array<int, string> $keys key id => 32-byte key
 * @throws RuntimeException "the message could not be authenticated", whatever failed: an unknown version
 *   or key id, a message changed or cut, or other associated data
 */
function rotating_open(string $sealed, string $associatedData, #[\SensitiveParameter] array $keys): string
{
    $keyId = rotating_key_id($sealed);
    if (!isset($keys[$keyId])) {
        throw new RuntimeException('the message could not be authenticated');
    }
    return xchacha20poly1305_open(substr($sealed, 5), substr($sealed, 0, 5) . $associatedData, $keys[$keyId]);
}

/**
 * The message opened and sealed again under the current key, or returned as it is when that key sealed it.
 *
 * @param array<int, string> $keys key id => 32-byte key
 */
function rotating_reseal(string $sealed, string $associatedData, #[\SensitiveParameter] array $keys, int $currentKeyId): string
{
    $plaintext = rotating_open($sealed, $associatedData, $keys);
    return rotating_key_id($sealed) === $currentKeyId ? $sealed : rotating_seal($plaintext, $associatedData, $keys, $currentKeyId);
}

/**
 * The id of the key that sealed the message, as its header says (proven only once it opens).
 *
 * @throws RuntimeException "the message could not be authenticated" when it is not of a version this code knows
 */
function rotating_key_id(string $sealed): int
{
    if (strlen($sealed) < 5) {
        throw new RuntimeException('the message could not be authenticated');
    }
    if ($sealed[0] !== "\x01") {
        throw new RuntimeException('the message could not be authenticated');
    }
    return unpack('N', $sealed, 1)[1];
}

function rotating_header(int $keyId): string
{
    if ($keyId < 0 || $keyId > 0xFFFFFFFF) {
        throw new InvalidArgumentException(sprintf('expected a key id from 0 to 4294967295, got %d', $keyId));
    }
    return "\x01" . pack('N', $keyId);
}
