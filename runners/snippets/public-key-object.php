<?php

declare(strict_types=1);

/*
 * Signature verification (RS256: RSA PKCS#1 v1.5, or ES256: ECDSA P-256, both with SHA-256) with the
 * public key loaded ONCE into a key object, and its size read once, where the key is loaded.
 *
 * Not openssl_verify($data, $signature, $publicKeyPem, 'sha256') on every message: given PEM text,
 * ext-openssl decodes it into a new key on every call. And not
 * strlen($signature) !== intdiv(openssl_pkey_get_details($publicKey)['bits'] + 7, 8) on every
 * message: openssl_pkey_get_details() exports the whole key to answer one number.
 *
 * The key: the signer's public key as PEM ("-----BEGIN PUBLIC KEY-----"), from configuration you
 * trust (never from the message being verified). RSA keys shorter than 2048 bits and EC keys on
 * other curves than P-256 are refused. ES256 signatures are DER here, as openssl_sign() makes them
 * (a JWS carries R ‖ S: convert it first).
 *
 *   $verifier = public_key_verifier($publicKeyPem);                  // once, where the key is loaded
 *   $valid = public_key_verify($verifier, $data, $signature);        // per message: true or false
 *
 * PHPUnit runs this file: runners/tests/Snippets/PublicKeyObjectTest.php (phpcrypto-bench).
 */

/** @return array{publicKey: OpenSSLAsymmetricKey, modulusBytes: int|null} */
function public_key_verifier(string $publicKeyPem): array
{
    $publicKey = openssl_pkey_get_public($publicKeyPem);
    $details = $publicKey === false ? false : openssl_pkey_get_details($publicKey);
    if ($publicKey === false || $details === false) {
        throw new InvalidArgumentException('expected a PEM public key, OpenSSL refused it');
    }
    if ($details['type'] === OPENSSL_KEYTYPE_RSA && isset($details['rsa'])) {
        if ($details['bits'] < 2048) {
            throw new InvalidArgumentException(sprintf('expected an RSA key of at least 2048 bits, got %d', $details['bits']));
        }
        // Read once: an RSA signature is exactly as long as the modulus (RFC 8017 section 8.2.2).
        $modulusBytes = intdiv($details['bits'] + 7, 8);
        return ['publicKey' => $publicKey, 'modulusBytes' => $modulusBytes];
    }
    if ($details['type'] === OPENSSL_KEYTYPE_EC && ($details['ec']['curve_name'] ?? null) === 'prime256v1') {
        return ['publicKey' => $publicKey, 'modulusBytes' => null];
    }
    throw new InvalidArgumentException('expected an RSA or a P-256 public key, got another kind of key');
}

/** @param array{publicKey: OpenSSLAsymmetricKey, modulusBytes: int|null} $verifier from public_key_verifier() */
function public_key_verify(array $verifier, string $data, string $signature): bool
{
    ['publicKey' => $publicKey, 'modulusBytes' => $modulusBytes] = $verifier;
    if ($modulusBytes !== null && strlen($signature) !== $modulusBytes) {
        return false;
    }
    // openssl_verify() returns 1 (valid), 0 (invalid) or -1 or false (an error): only 1 accepts.
    return openssl_verify($data, $signature, $publicKey, 'sha256') === 1;
}
