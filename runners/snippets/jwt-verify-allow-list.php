<?php

declare(strict_types=1);

/*
 * JWT verification as RFC 8725 asks: the algorithm comes from the key, never from the token, and only
 * from an allow-list; then the claims a signature does not check: typ, iss, aud, exp and nbf.
 *
 * The JWS part here is phpcrypto-bench's own code (runners/src/Jws: Algorithms, Key, CompactJws, the
 * code the benchmark times, tested against RFC 7515 and RFC 7520 examples and Wycheproof vectors), so
 * that this file runs in its tests. In an application, let a maintained library do that part, with the
 * same checks around it: lcobucci/jwt (its validator with the SignedWith, IssuedBy, PermittedFor and
 * StrictValidAt constraints) or firebase/php-jwt (JWT::decode() with one Key per kid, each naming its
 * algorithm; it checks exp and nbf, and leaves iss, aud and typ to you, as jwt_verify() checks them here).
 *
 * The keys: the issuer's JWK Set (its public keys, from its jwks_uri over HTTPS or from configuration
 * you trust; never from the token), decoded with json_decode($json, true). Each JWK needs a kid and
 * names its one algorithm (alg), which must be in $allowed: asymmetric ones only by default, since an
 * HS256 secret lets every verifier forge tokens. Each key is checked once, where it is loaded (an ES256
 * key on P-256, RSA of 2048 bits or more, a key published for signatures), and bound to its algorithm.
 *
 *   $keys = jwt_keys_from_jwks($jwks);                                          // once, where keys load
 *   $claims = jwt_verify($token, $keys, 'https://issuer.example', 'https://api.example', time());
 *
 * PHPUnit runs this file: runners/tests/Snippets/JwtVerifyAllowListTest.php (phpcrypto-bench).
 */

use PhpCryptoBench\Jws\Algorithms;
use PhpCryptoBench\Jws\Base64Url;
use PhpCryptoBench\Jws\CompactJws;
use PhpCryptoBench\Jws\Key;

/**
 * @param array<string, mixed> $jwks the issuer's JWK Set: ['keys' => [JWK, ...]]
 * @param list<string> $allowed the algorithms this verifier accepts
 * @return array<string, Key> by kid, each bound to its one algorithm
 */
function jwt_keys_from_jwks(array $jwks, array $allowed = ['ES256', 'EdDSA', 'PS256', 'RS256']): array
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
        if (!is_string($alg) || !in_array($alg, $allowed, true)) {
            throw new InvalidArgumentException(sprintf('key "%s": expected alg to be one of %s, got %s', $kid, implode(', ', $allowed), is_string($alg) ? "\"$alg\"" : 'none'));
        }
        // A verifier holds public keys only: a private member means the issuer published its secret.
        if (isset($jwk['d']) || isset($jwk['k'])) {
            throw new InvalidArgumentException(sprintf('key "%s": expected a public key, got a private or secret one', $kid));
        }
        try {
            $keys[$kid] = Key::verificationJwk(Algorithms::named($alg), $jwk);
        } catch (RuntimeException $e) {
            throw new InvalidArgumentException(sprintf('key "%s": %s', $kid, $e->getMessage()), 0, $e);
        }
    }
    return $keys;
}

/**
 * The claims of a token that passed every check, or an exception that says which one it failed.
 *
 * @param array<string, Key> $keys from jwt_keys_from_jwks()
 * @param int $now the time, as time() gives it
 * @param int $leewaySeconds clock difference allowed between issuer and verifier, for exp and nbf
 * @param string $type the typ its issuer gives tokens for this purpose (RFC 8725 section 3.11)
 * @return array<string, mixed>
 * @throws RuntimeException when the token is refused
 */
function jwt_verify(string $token, array $keys, string $issuer, string $audience, int $now, int $leewaySeconds = 30, string $type = 'JWT'): array
{
    try {
        // The kid picks the key (and so the algorithm); nothing else of the header is trusted before the signature.
        $kid = jwt_unverified_header($token)['kid'] ?? null;
        if (!is_string($kid) || !isset($keys[$kid])) {
            throw new RuntimeException(sprintf('header kid: expected one of %s, got %s', json_encode(array_keys($keys), JSON_UNESCAPED_SLASHES), json_encode($kid, JSON_UNESCAPED_SLASHES)));
        }
        // Refuses an alg other than the key's (none and HS256 with a public key included), crit, and a bad signature.
        $verified = CompactJws::verify($token, $keys[$kid]);
        $typ = $verified->header['typ'] ?? null;
        if (!is_string($typ) || strcasecmp($typ, $type) !== 0) {
            throw new RuntimeException(sprintf('header typ: expected "%s", got %s', $type, json_encode($typ, JSON_UNESCAPED_SLASHES)));
        }
        $claims = json_decode($verified->payload, true, 64, JSON_THROW_ON_ERROR | JSON_BIGINT_AS_STRING);
        if (!is_array($claims) || (array_is_list($claims) && $claims !== [])) {
            throw new RuntimeException('payload: expected a JSON object of claims');
        }
        jwt_check_claims($claims, $issuer, $audience, $now, $leewaySeconds);
        return $claims;
    } catch (RuntimeException | JsonException $e) {
        throw new RuntimeException('the token was refused: ' . $e->getMessage(), 0, $e);
    }
}

/** @param array<string, mixed> $claims */
function jwt_check_claims(array $claims, string $issuer, string $audience, int $now, int $leewaySeconds): void
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
    $header = json_decode(Base64Url::decode($parts[0], 'header'), true, 16, JSON_THROW_ON_ERROR);
    if (!is_array($header) || (array_is_list($header) && $header !== [])) {
        throw new RuntimeException('header: expected a JSON object');
    }
    return $header;
}
