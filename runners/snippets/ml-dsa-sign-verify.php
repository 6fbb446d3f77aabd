<?php

declare(strict_types=1);

/*
 * ML-DSA signatures (FIPS 204, the post-quantum lattice signature) through ext-openssl: OpenSSL 3.5 or
 * newer has ML-DSA-44, ML-DSA-65 and ML-DSA-87 built in, and PHP's openssl_sign() and openssl_verify()
 * use them when given algorithm 0 (the key's own: ML-DSA signs the message itself, with no separate
 * digest; naming one, as 'sha256', fails). With an older OpenSSL these functions refuse, saying so.
 *
 * The keys: made with OpenSSL's command line, kept as PEM (the private one secret, as any signing key):
 *   openssl genpkey -algorithm ML-DSA-65 -out ml-dsa-private.pem
 *   openssl pkey -in ml-dsa-private.pem -pubout -out ml-dsa-public.pem
 * The public key names its parameter set (an OID in its SubjectPublicKeyInfo); it is checked once, where
 * it is loaded, and the signature's length with it (3309 bytes for ML-DSA-65; a public key is 1952).
 * Sizes, where they matter: an ML-DSA-65 signature in a JWT is about 4.4 KiB of base64url, more than a
 * 4 KiB cookie holds; use it where both ends run OpenSSL 3.5+ and the size is affordable.
 *
 *   $signature = ml_dsa_sign($data, openssl_pkey_get_private($privatePem));   // the signer
 *   $verifier = ml_dsa_public_key($publicPem);                                 // once, where the key is loaded
 *   $valid = ml_dsa_verify($verifier, $data, $signature);                      // per message: true or false
 *
 * PHPUnit runs this file: runners/tests/Snippets/MlDsaSignVerifyTest.php (phpcrypto-bench), in a stack
 * with OpenSSL 3.5 (it is skipped, with the reason, where OpenSSL is older).
 */

/** @return array{publicKey: OpenSSLAsymmetricKey, parameterSet: string, signatureBytes: int} */
function ml_dsa_public_key(string $publicKeyPem): array
{
    ml_dsa_check_openssl();
    $publicKey = openssl_pkey_get_public($publicKeyPem);
    if ($publicKey === false) {
        throw new InvalidArgumentException('expected a PEM public key, OpenSSL refused it');
    }
    [$parameterSet, $signatureBytes] = ml_dsa_parameter_set($publicKey);
    return ['publicKey' => $publicKey, 'parameterSet' => $parameterSet, 'signatureBytes' => $signatureBytes];
}

function ml_dsa_sign(string $data, #[\SensitiveParameter] OpenSSLAsymmetricKey $privateKey): string
{
    ml_dsa_check_openssl();
    ml_dsa_parameter_set($privateKey);
    // Algorithm 0: no digest, the key's own algorithm (pure ML-DSA, empty context).
    if (!openssl_sign($data, $signature, $privateKey, 0)) {
        throw new RuntimeException('openssl_sign() failed: ' . openssl_error_string());
    }
    return $signature;
}

/** @param array{publicKey: OpenSSLAsymmetricKey, parameterSet: string, signatureBytes: int} $verifier from ml_dsa_public_key() */
function ml_dsa_verify(array $verifier, string $data, string $signature): bool
{
    if (strlen($signature) !== $verifier['signatureBytes']) {
        return false;
    }
    // openssl_verify() returns 1 (valid), 0 (invalid) or -1 or false (an error): only 1 accepts.
    return openssl_verify($data, $signature, $verifier['publicKey'], 0) === 1;
}

/**
 * The ML-DSA parameter set of a key (public, or private through its public half), from the OID of its
 * SubjectPublicKeyInfo (FIPS 204, RFC 9881), and the length of its signatures.
 *
 * @return array{0: string, 1: int}
 */
function ml_dsa_parameter_set(OpenSSLAsymmetricKey $key): array
{
    $pem = openssl_pkey_get_details($key)['key'] ?? '';
    $der = base64_decode((string) preg_replace('/-----[A-Z ]+-----|\s/', '', $pem), true);
    // SEQUENCE { SEQUENCE { OID 2.16.840.1.101.3.4.3.17, .18 or .19 }, BIT STRING }: the OID ends at byte 19.
    $sets = ["\x11" => ['ML-DSA-44', 2420, 1312], "\x12" => ['ML-DSA-65', 3309, 1952], "\x13" => ['ML-DSA-87', 4627, 2592]];
    $set = is_string($der) && strlen($der) > 22 && substr($der, 4, 12) === "\x30\x0b\x06\x09\x60\x86\x48\x01\x65\x03\x04\x03" ? ($sets[$der[16]] ?? null) : null;
    // The public key fills the rest: 4 + 13 + 5 bytes of headers before it.
    if ($set === null || strlen($der) !== 22 + $set[2]) {
        throw new InvalidArgumentException('expected an ML-DSA-44, ML-DSA-65 or ML-DSA-87 key, got another kind of key');
    }
    return [$set[0], $set[1]];
}

function ml_dsa_check_openssl(): void
{
    if (OPENSSL_VERSION_NUMBER < 0x30500000) {
        throw new RuntimeException(sprintf('ML-DSA needs OpenSSL 3.5 or newer; this PHP uses %s', OPENSSL_VERSION_TEXT));
    }
}
