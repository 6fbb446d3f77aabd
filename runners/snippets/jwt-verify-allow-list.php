<?php

declare(strict_types=1);

/*
 * JWT verification as RFC 8725 asks, in one file with ext-openssl and ext-sodium only: the algorithm
 * comes from the key, never from the token, and only from an allow-list; then the claims a signature
 * does not check: typ, iss, aud, exp, nbf, and a maximum lifetime from iat.
 *
 * Ed25519 (RFC 8037, named "Ed25519" by RFC 9864 and "EdDSA" before it: both are accepted for an
 * Ed25519 key) is verified by libsodium; ES256 (P-256, its R ‖ S signature turned into the DER
 * openssl_verify() reads), RS256 and PS256 (RSA of 2048 bits or more) by OpenSSL, each key rebuilt from
 * its JWK as a public key of exactly that kind (a PS256 key as an RSASSA-PSS key, whose parameters make
 * OpenSSL check PSS with SHA-256 and a 32-byte salt). A maintained library (lcobucci/jwt with its
 * SignedWith, IssuedBy, PermittedFor and StrictValidAt constraints, or firebase/php-jwt with one Key
 * per kid) does the same; the checks around it are the ones here.
 *
 * The keys: the issuer's JWK Set (its public keys, from its jwks_uri over HTTPS or from configuration
 * you trust; never from the token), decoded with json_decode($json, true). Each JWK needs a kid and
 * names its one algorithm (alg), which must be in $allowed and fit the key (kty, crv): an "EC" key on
 * "P-256" verifies ES256 only, an "OKP" key on "Ed25519" Ed25519 (or EdDSA) only, an "RSA" key RS256
 * or PS256, whichever its alg says. Secret (HS256) and private keys are refused: a verifier holds public
 * keys only. Each key is checked once, where it is loaded.
 *
 *   $keys = jwt_keys_from_jwks($jwks);                                          // once, where keys load
 *   try {
 *       $claims = jwt_verify($token, $keys, 'https://issuer.example', 'https://api.example', time());
 *   } catch (RuntimeException $e) {
 *       error_log($e->getPrevious()?->getMessage() ?? '');   // the reason, for your log only
 *       // answer 401 with $e->getMessage(): "the token was refused", the same for every failure
 *   }
 *
 * PHPUnit runs this file: runners/tests/Snippets/JwtVerifyAllowListTest.php (phpcrypto-bench).
 */

/**
 * @param array<string, mixed> $jwks the issuer's JWK Set: ['keys' => [JWK, ...]]
 * @param list<string> $allowed the algorithms this verifier accepts
 * @return array<string, array{alg: string, algs: list<string>, key: OpenSSLAsymmetricKey|string, bytes: int}>
 *   by kid: the JWK's alg, the header algs it verifies, the public key, the length of its signatures
 */
function jwt_keys_from_jwks(array $jwks, array $allowed = ['ES256', 'Ed25519', 'EdDSA', 'PS256', 'RS256']): array
{
    if (!isset($jwks['keys']) || !is_array($jwks['keys']) || !array_is_list($jwks['keys'])) {
        throw new InvalidArgumentException('expected a JWK Set: an object whose "keys" member is a list of JWKs');
    }
    $keys = [];
    foreach ($jwks['keys'] as $index => $jwk) {
        $kid = is_array($jwk) ? ($jwk['kid'] ?? null) : null;
        if (!is_string($kid) || $kid === '' || isset($keys[$kid])) {
            throw new InvalidArgumentException(sprintf('key %d: expected a JWK with a kid of its own, got %s', $index, is_string($kid) ? "kid \"$kid\" again" : 'none'));
        }
        $alg = $jwk['alg'] ?? null;
        if (!in_array($alg, $allowed, true)) {
            throw new InvalidArgumentException(sprintf('key "%s": expected alg to be one of %s, got %s', $kid, implode(', ', $allowed), is_string($alg) ? "\"$alg\"" : 'none'));
        }
        // A verifier holds public keys only: a private member means the issuer published its secret.
        if (array_key_exists('d', $jwk) || array_key_exists('k', $jwk)) {
            throw new InvalidArgumentException(sprintf('key "%s": expected a public key, got a private or secret one', $kid));
        }
        try {
            $keys[$kid] = jwt_key_from_jwk($jwk, $alg, $allowed);
        } catch (RuntimeException $e) {
            throw new InvalidArgumentException(sprintf('key "%s": %s', $kid, $e->getMessage()), 0, $e);
        }
    }
    return $keys;
}

/**
 * One public key of a JWK Set, bound to the algorithm its alg names and its kty and crv allow.
 *
 * @param array<string, mixed> $jwk
 * @param list<string> $allowed
 * @return array{alg: string, algs: list<string>, key: OpenSSLAsymmetricKey|string, bytes: int}
 */
function jwt_key_from_jwk(array $jwk, string $alg, array $allowed): array
{
    if (($jwk['use'] ?? 'sig') !== 'sig' || (isset($jwk['key_ops']) && (!is_array($jwk['key_ops']) || !in_array('verify', $jwk['key_ops'], true)))) {
        throw new RuntimeException('expected a key published for signatures (use "sig", key_ops with "verify")');
    }
    $kty = $jwk['kty'] ?? null;
    $crv = $jwk['crv'] ?? null;
    if ($alg === 'Ed25519' || $alg === 'EdDSA') {
        if ($kty !== 'OKP' || $crv !== 'Ed25519') {
            throw new RuntimeException(sprintf('%s: expected kty "OKP" with crv "Ed25519", got kty %s', $alg, json_encode($kty)));
        }
        // RFC 9864: "Ed25519" names this algorithm; "EdDSA" is its deprecated, polymorphic name.
        $algs = array_values(array_intersect(['Ed25519', 'EdDSA'], $allowed));
        return ['alg' => $alg, 'algs' => $algs, 'key' => jwt_jwk_bytes($jwk, 'x', 32), 'bytes' => 64];
    }
    if ($alg === 'ES256') {
        if ($kty !== 'EC' || $crv !== 'P-256') {
            throw new RuntimeException(sprintf('ES256: expected kty "EC" with crv "P-256", got kty %s', json_encode($kty)));
        }
        // SubjectPublicKeyInfo { id-ecPublicKey, prime256v1 } with the uncompressed point; OpenSSL refuses a point off the curve.
        $der = hex2bin('3059301306072a8648ce3d020106082a8648ce3d030107034200') . "\x04" . jwt_jwk_bytes($jwk, 'x', 32) . jwt_jwk_bytes($jwk, 'y', 32);
        return ['alg' => $alg, 'algs' => [$alg], 'key' => jwt_openssl_public_key($der), 'bytes' => 64];
    }
    if ($alg === 'RS256' || $alg === 'PS256') {
        if ($kty !== 'RSA') {
            throw new RuntimeException(sprintf('%s: expected kty "RSA", got kty %s', $alg, json_encode($kty)));
        }
        $modulus = ltrim(jwt_jwk_bytes($jwk, 'n'), "\0");
        $bits = strlen($modulus) * 8 - ($modulus === '' ? 0 : 8 - strlen(decbin(ord($modulus[0]))));
        if ($bits < 2048) {
            throw new RuntimeException(sprintf('%s: expected an RSA key of at least 2048 bits, got %d', $alg, $bits));
        }
        // rsaEncryption for RS256; for PS256 id-RSASSA-PSS { SHA-256, MGF1(SHA-256), salt length 32 } (RFC 4055).
        $algorithmIdentifier = $alg === 'RS256' ? '300d06092a864886f70d0101010500'
            : '304106092a864886f70d01010a3034a00f300d06096086480165030402010500a11c301a06092a864886f70d010108300d06096086480165030402010500a203020120';
        $rsaPublicKey = jwt_der(0x30, jwt_der_integer($modulus) . jwt_der_integer(jwt_jwk_bytes($jwk, 'e')));
        $der = jwt_der(0x30, hex2bin($algorithmIdentifier) . jwt_der(0x03, "\0" . $rsaPublicKey));
        return ['alg' => $alg, 'algs' => [$alg], 'key' => jwt_openssl_public_key($der), 'bytes' => strlen($modulus)];
    }
    throw new RuntimeException(sprintf('%s: this verifier implements ES256, Ed25519 (EdDSA), PS256 and RS256 only', $alg));
}

/**
 * The claims of a token that passed every check. Otherwise one RuntimeException, "the token was
 * refused", whatever failed: its getPrevious() holds the reason, for your log, not for the caller.
 *
 * @param array<string, array{alg: string, algs: list<string>, key: OpenSSLAsymmetricKey|string, bytes: int}> $keys from jwt_keys_from_jwks()
 * @param int $now the time, as time() gives it
 * @param int $leewaySeconds clock difference allowed between issuer and verifier, for exp, nbf and iat
 * @param string $type the typ its issuer gives tokens for this purpose (RFC 8725 section 3.11)
 * @param int $maxLifetimeSeconds the longest exp - iat accepted: a token is refused once this old, whatever its exp
 * @return array<string, mixed>
 * @throws RuntimeException when the token is refused
 */
function jwt_verify(string $token, array $keys, string $issuer, string $audience, int $now, int $leewaySeconds = 30, string $type = 'JWT', int $maxLifetimeSeconds = 3600): array
{
    try {
        // The kid picks the key (and so the algorithm); nothing else of the header is trusted before the signature.
        $header = jwt_unverified_header($token);
        $kid = $header['kid'] ?? null;
        if (!is_string($kid) || !isset($keys[$kid])) {
            throw new RuntimeException(sprintf('header kid: expected one of the key set\'s kids, got %s', json_encode($kid, JSON_UNESCAPED_SLASHES)));
        }
        $key = $keys[$kid];
        // Refuses an alg other than the key's: none, and HS256 keyed with a public key, included.
        if (!in_array($header['alg'] ?? null, $key['algs'], true)) {
            throw new RuntimeException(sprintf('header alg: expected %s for key "%s", got %s', json_encode($key['algs']), $kid, json_encode($header['alg'] ?? null, JSON_UNESCAPED_SLASHES)));
        }
        if (array_key_exists('crit', $header)) {
            throw new RuntimeException('header crit: this verifier understands no extension');
        }
        [$encodedHeader, $encodedPayload, $encodedSignature] = explode('.', $token);
        if (!jwt_signature_verifies($encodedHeader . '.' . $encodedPayload, jwt_base64url_decode($encodedSignature, 'signature'), $key)) {
            throw new RuntimeException(sprintf('%s: expected a signature that verifies', $key['alg']));
        }
        $typ = $header['typ'] ?? null;
        if (!is_string($typ) || strcasecmp($typ, $type) !== 0) {
            throw new RuntimeException(sprintf('header typ: expected "%s", got %s', $type, json_encode($typ, JSON_UNESCAPED_SLASHES)));
        }
        $claims = json_decode(jwt_base64url_decode($encodedPayload, 'payload'), true, 64, JSON_THROW_ON_ERROR | JSON_BIGINT_AS_STRING);
        if (!is_array($claims) || (array_is_list($claims) && $claims !== [])) {
            throw new RuntimeException('payload: expected a JSON object of claims');
        }
        jwt_check_claims($claims, $issuer, $audience, $now, $leewaySeconds, $maxLifetimeSeconds);
        return $claims;
    } catch (RuntimeException | JsonException $e) {
        throw new RuntimeException('the token was refused', 0, $e);
    }
}

/** @param array{alg: string, algs: list<string>, key: OpenSSLAsymmetricKey|string, bytes: int} $key */
function jwt_signature_verifies(string $signingInput, string $signature, array $key): bool
{
    // Every signature has one length (RFC 7518 sections 3.3 to 3.5, RFC 8037): a second encoding of it is refused.
    if (strlen($signature) !== $key['bytes']) {
        return false;
    }
    if (is_string($key['key'])) {
        return sodium_crypto_sign_verify_detached($signature, $signingInput, $key['key']);
    }
    if ($key['alg'] === 'ES256') {
        // JWS carries R ‖ S (32 bytes each); OpenSSL reads SEQUENCE { INTEGER r, INTEGER s }.
        $signature = jwt_der(0x30, jwt_der_integer(substr($signature, 0, 32)) . jwt_der_integer(substr($signature, 32)));
    }
    // openssl_verify() returns 1 (valid), 0 (invalid) or -1 or false (an error): only 1 accepts.
    return openssl_verify($signingInput, $signature, $key['key'], OPENSSL_ALGO_SHA256) === 1;
}

/** @param array<string, mixed> $claims */
function jwt_check_claims(array $claims, string $issuer, string $audience, int $now, int $leewaySeconds, int $maxLifetimeSeconds): void
{
    if (($claims['iss'] ?? null) !== $issuer) {
        throw new RuntimeException(sprintf('iss: expected "%s", got %s', $issuer, json_encode($claims['iss'] ?? null, JSON_UNESCAPED_SLASHES)));
    }
    // aud is one string or a list of strings (anything else is a malformed token); this verifier must be among them, exactly.
    $aud = $claims['aud'] ?? null;
    $audiences = is_string($aud) ? [$aud] : $aud;
    if (!is_array($audiences) || !array_is_list($audiences) || array_filter($audiences, 'is_string') !== $audiences || !in_array($audience, $audiences, true)) {
        throw new RuntimeException(sprintf('aud: expected "%s" among the audiences, got %s', $audience, json_encode($aud, JSON_UNESCAPED_SLASHES)));
    }
    // A token without an end is valid forever: exp is required here. NumericDates in whole seconds.
    $exp = $claims['exp'] ?? null;
    if (!is_int($exp)) {
        throw new RuntimeException(sprintf('exp: expected a NumericDate (whole seconds), got %s', json_encode($exp, JSON_UNESCAPED_SLASHES)));
    }
    if ($now >= $exp + $leewaySeconds) {
        throw new RuntimeException(sprintf('exp: expired at %d, it is %d (leeway %d s)', $exp, $now, $leewaySeconds));
    }
    if (array_key_exists('nbf', $claims)) {
        if (!is_int($claims['nbf'])) {
            throw new RuntimeException(sprintf('nbf: expected a NumericDate (whole seconds), got %s', json_encode($claims['nbf'], JSON_UNESCAPED_SLASHES)));
        }
        if ($now < $claims['nbf'] - $leewaySeconds) {
            throw new RuntimeException(sprintf('nbf: not valid before %d, it is %d (leeway %d s)', $claims['nbf'], $now, $leewaySeconds));
        }
    }
    // The lifetime is capped from iat (required): an exp far away is refused, not trusted.
    $iat = $claims['iat'] ?? null;
    if (!is_int($iat)) {
        throw new RuntimeException(sprintf('iat: expected a NumericDate (whole seconds), got %s', json_encode($iat, JSON_UNESCAPED_SLASHES)));
    }
    if ($iat > $now + $leewaySeconds) {
        throw new RuntimeException(sprintf('iat: issued at %d, after now %d (leeway %d s)', $iat, $now, $leewaySeconds));
    }
    if ($exp - $iat > $maxLifetimeSeconds) {
        throw new RuntimeException(sprintf('exp: a lifetime of %d s from iat, longer than %d s', $exp - $iat, $maxLifetimeSeconds));
    }
}

/**
 * The header of a token, decoded but not yet verified: only to find its key.
 *
 * @return array<string, mixed>
 */
function jwt_unverified_header(string $token): array
{
    $parts = explode('.', $token);
    if (count($parts) !== 3) {
        throw new RuntimeException(sprintf('expected 3 parts separated by dots, got %d', count($parts)));
    }
    $header = json_decode(jwt_base64url_decode($parts[0], 'header'), true, 16, JSON_THROW_ON_ERROR);
    if (!is_array($header) || (array_is_list($header) && $header !== [])) {
        throw new RuntimeException('header: expected a JSON object');
    }
    return $header;
}

/** base64url without padding (RFC 7515 section 2), its one encoding only. */
function jwt_base64url_decode(string $text, string $part): string
{
    // Encoded again, the bytes must give $text back: that refuses '+', '/', '=', white space and a last character with stray bits.
    $bytes = base64_decode(strtr($text, '-_', '+/'), true);
    if ($bytes === false || rtrim(strtr(base64_encode($bytes), '+/', '-_'), '=') !== $text) {
        throw new RuntimeException(sprintf('%s: expected base64url without padding', $part));
    }
    return $bytes;
}

/** @param array<string, mixed> $jwk */
function jwt_jwk_bytes(array $jwk, string $member, ?int $length = null): string
{
    $bytes = is_string($jwk[$member] ?? null) ? jwt_base64url_decode($jwk[$member], $member) : '';
    if ($bytes === '' || ($length !== null && strlen($bytes) !== $length)) {
        throw new RuntimeException(sprintf('expected the member %s of %s bytes, got %d bytes', $member, $length ?? 'one or more', strlen($bytes)));
    }
    return $bytes;
}

function jwt_openssl_public_key(string $der): OpenSSLAsymmetricKey
{
    $pem = "-----BEGIN PUBLIC KEY-----\n" . chunk_split(base64_encode($der), 64, "\n") . "-----END PUBLIC KEY-----\n";
    return openssl_pkey_get_public($pem) ?: throw new RuntimeException('OpenSSL refused the key: ' . openssl_error_string());
}

/** A DER element: tag, definite length, contents. */
function jwt_der(int $tag, string $contents): string
{
    $length = strlen($contents);
    $lengthBytes = ltrim(pack('N', $length), "\0");
    return chr($tag) . ($length < 0x80 ? chr($length) : chr(0x80 | strlen($lengthBytes)) . $lengthBytes) . $contents;
}

/** A DER INTEGER of the unsigned big-endian $bytes: no leading zero byte unless the next byte's high bit is set. */
function jwt_der_integer(string $bytes): string
{
    $bytes = ltrim($bytes, "\0");
    return jwt_der(0x02, ($bytes === '' || ord($bytes[0]) >= 0x80 ? "\0" : '') . $bytes);
}
