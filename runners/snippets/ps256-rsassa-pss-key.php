<?php

declare(strict_types=1);

/*
 * PS256 signatures (RSASSA-PSS with SHA-256, MGF1 with SHA-256 and a 32-byte salt; RFC 7518 section
 * 3.5) verified by OpenSSL, with the public key in its RSASSA-PSS form (RFC 4055 section 3.1), whose
 * parameters fix the hash, MGF1 and the salt length. openssl_verify() has no padding option: given a
 * plain RSA key it checks PKCS#1 v1.5 (RS256) instead, and PSS decoded in PHP is code of your own to
 * get wrong. Given this key, OpenSSL checks PSS with exactly these parameters: a PKCS#1 v1.5
 * signature, another salt length or another hash is refused. Choose this for correctness; it is
 * also no slower.
 *
 * The key: the signer's RSA public key (2048 bits or more) as an id-RSASSA-PSS PEM, from
 * configuration you trust. A new key pair can be made so:
 *   openssl genpkey -algorithm RSA-PSS -pkeyopt rsa_keygen_bits:2048 -pkeyopt rsa_pss_keygen_md:sha256
 *     -pkeyopt rsa_pss_keygen_mgf1_md:sha256 -pkeyopt rsa_pss_keygen_saltlen:32 -out ps256-private.pem
 *   openssl pkey -in ps256-private.pem -pubout -out ps256-public.pem
 * (an existing RSA key can be re-labelled: phpcrypto-bench's runners/src/Jws/RsaPssKey.php does it).
 *
 *   [$pssPublicKey, $signatureBytes] = ps256_public_key($rsassaPssPem);           // once, where the key is loaded
 *   $valid = ps256_verify($pssPublicKey, $signatureBytes, $data, $signature);     // per message: true or false
 *
 * A PS256 signature is exactly as long as the key's modulus (RFC 8017 section 8.1.2, step 1); OpenSSL
 * also accepts one whose leading zero bytes were dropped, a second encoding of the same signature, so
 * the length is checked here, against the size read from the key once.
 *
 * PHPUnit runs this file: runners/tests/Snippets/Ps256RsassaPssKeyTest.php (phpcrypto-bench).
 */

/** @return array{0: OpenSSLAsymmetricKey, 1: int} the key, and the length in bytes of its signatures */
function ps256_public_key(string $rsassaPssPem): array
{
    $pssPublicKey = openssl_pkey_get_public($rsassaPssPem);
    $details = $pssPublicKey === false ? false : openssl_pkey_get_details($pssPublicKey);
    if ($pssPublicKey === false || $details === false) {
        throw new InvalidArgumentException('expected a PEM public key, OpenSSL refused it');
    }
    // The key as OpenSSL writes it back (DER): SEQUENCE { AlgorithmIdentifier, BIT STRING }. Its
    // AlgorithmIdentifier must be exactly id-RSASSA-PSS { SHA-256, MGF1(SHA-256), salt length 32 }.
    $der = (string) base64_decode((string) preg_replace('/-----[A-Z ]+-----|\s+/', '', $details['key']), true);
    $ps256 = hex2bin(
        '3041' . '06092a864886f70d01010a'                                // id-RSASSA-PSS
        . '3034' . 'a00f300d06096086480165030402010500'                  // [0] hash: SHA-256
        . 'a11c301a06092a864886f70d010108300d06096086480165030402010500' // [1] MGF1 with SHA-256
        . 'a203020120'                                                   // [2] salt length: 32
    );
    // The AlgorithmIdentifier follows the outer SEQUENCE's tag and length (30 82 xx xx for 2048 bits).
    $lengthByte = strlen($der) > 1 ? ord($der[1]) : 0;
    $offset = 2 + ($lengthByte > 0x80 ? $lengthByte - 0x80 : 0);
    if (substr($der, $offset, strlen($ps256)) !== $ps256) {
        throw new InvalidArgumentException('expected an RSASSA-PSS public key for SHA-256, MGF1 with SHA-256 and a 32-byte salt, got another key');
    }
    if ($details['bits'] < 2048) {
        throw new InvalidArgumentException(sprintf('expected a key of at least 2048 bits, got %d', $details['bits']));
    }
    return [$pssPublicKey, intdiv($details['bits'] + 7, 8)];
}

function ps256_verify(OpenSSLAsymmetricKey $pssPublicKey, int $signatureBytes, string $data, string $signature): bool
{
    if (strlen($signature) !== $signatureBytes) {
        return false;
    }
    // openssl_verify() returns 1 (valid), 0 (invalid) or -1 or false (an error): only 1 accepts.
    return openssl_verify($data, $signature, $pssPublicKey, 'sha256') === 1;
}
