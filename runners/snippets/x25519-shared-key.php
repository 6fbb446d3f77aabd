<?php

declare(strict_types=1);

/*
 * X25519 key agreement (ext-sodium) whose raw shared secret goes through HKDF before use. The raw
 * X25519 output is not a key: it is not uniformly random, and it is the same for every protocol that
 * uses the same two key pairs. HKDF-SHA-256 turns it into a 32-byte key bound to both public keys
 * and to $context, the protocol and purpose (e.g. "example.com file sharing v1"): other purposes,
 * other keys. An all-zero result (a public key of small order, sent to force a known secret) is refused.
 *
 * The keys: each side makes its key pair with x25519_key_pair() and keeps its secret key secret
 * (never in the code or the database in clear). X25519 does not say who holds the other key: get
 * the other side's public key authenticated (signed, pinned, or from a directory you trust).
 *
 *   ['secretKey' => $mySecretKey, 'publicKey' => $myPublicKey] = x25519_key_pair();  // send $myPublicKey
 *   $key = x25519_shared_key($mySecretKey, $theirPublicKey, $context);               // both sides: the same key
 *
 * PHPUnit runs this file: runners/tests/Snippets/X25519SharedKeyTest.php (phpcrypto-bench).
 */

/** @return array{secretKey: string, publicKey: string} 32 bytes each */
function x25519_key_pair(): array
{
    $keyPair = sodium_crypto_box_keypair();
    return ['secretKey' => sodium_crypto_box_secretkey($keyPair), 'publicKey' => sodium_crypto_box_publickey($keyPair)];
}

function x25519_shared_key(#[\SensitiveParameter] string $mySecretKey, string $theirPublicKey, string $context): string
{
    if (strlen($mySecretKey) !== SODIUM_CRYPTO_SCALARMULT_SCALARBYTES || strlen($theirPublicKey) !== SODIUM_CRYPTO_SCALARMULT_BYTES) {
        throw new InvalidArgumentException(sprintf('expected a 32-byte secret key and a 32-byte public key, got %d and %d bytes', strlen($mySecretKey), strlen($theirPublicKey)));
    }
    if ($context === '') {
        throw new InvalidArgumentException('expected a context naming the protocol and purpose, got an empty one');
    }
    try {
        $sharedSecret = sodium_crypto_scalarmult($mySecretKey, $theirPublicKey);
    } catch (SodiumException $e) {
        // libsodium refuses an all-zero result itself.
        throw new RuntimeException('refused: the public key gives an all-zero shared secret', 0, $e);
    }
    if (hash_equals(str_repeat("\0", SODIUM_CRYPTO_SCALARMULT_BYTES), $sharedSecret)) {
        throw new RuntimeException('refused: the public key gives an all-zero shared secret');
    }
    $myPublicKey = sodium_crypto_scalarmult_base($mySecretKey);
    // Both public keys, in an order both sides agree on, then the context: the key belongs to this exchange.
    $publicKeys = strcmp($myPublicKey, $theirPublicKey) < 0 ? $myPublicKey . $theirPublicKey : $theirPublicKey . $myPublicKey;
    $key = hash_hkdf('sha256', $sharedSecret, 32, $publicKeys . $context);
    sodium_memzero($sharedSecret);
    return $key;
}
