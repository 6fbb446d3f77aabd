<?php

declare(strict_types=1);

namespace PhpCryptoBench\Jws;

use OpenSSLAsymmetricKey;
use PhpCryptoBench\Exception\MalformedToken;

/**
 * JSON Web Keys (RFC 7517, RFC 7518 section 6, RFC 8037) to and from what the algorithms take.
 * Public EC and RSA keys are imported as DER SubjectPublicKeyInfo: given only a point or a modulus,
 * openssl_pkey_new() would quietly generate a new random key instead.
 */
final class Jwk
{
    private const CURVES = [
        'P-256' => ['prime256v1', "\x2a\x86\x48\xce\x3d\x03\x01\x07", 32],
        'P-384' => ['secp384r1', "\x2b\x81\x04\x00\x22", 48],
        'P-521' => ['secp521r1', "\x2b\x81\x04\x00\x23", 66],
    ];
    private const EC_PUBLIC_KEY_OID = "\x2a\x86\x48\xce\x3d\x02\x01";
    private const RSA_ENCRYPTION_OID = "\x2a\x86\x48\x86\xf7\x0d\x01\x01\x01";

    /**
     * @param array<string, mixed> $jwk
     * @return OpenSSLAsymmetricKey|string the private key when the JWK has one, else the public key
     */
    public static function import(array $jwk): OpenSSLAsymmetricKey|string
    {
        return match ($jwk['kty'] ?? null) {
            'EC' => self::importEc($jwk),
            'RSA' => self::importRsa($jwk),
            'OKP' => self::importOkp($jwk),
            'oct' => self::member($jwk, 'k'),
            default => throw MalformedToken::jwk(sprintf('expected kty EC, RSA, OKP or oct, got %s', json_encode($jwk['kty'] ?? null))),
        };
    }

    /** @return array<string, string> the public JWK of an EC or RSA key, or of an Ed25519 key pair's public half */
    public static function publicOf(OpenSSLAsymmetricKey|string $key): array
    {
        if (is_string($key)) {
            $public = match (strlen($key)) {
                SODIUM_CRYPTO_SIGN_SECRETKEYBYTES => sodium_crypto_sign_publickey_from_secretkey($key),
                SODIUM_CRYPTO_SIGN_PUBLICKEYBYTES => $key,
                default => throw MalformedToken::jwk(sprintf('expected a 64-byte Ed25519 secret key or a 32-byte public key, got %d bytes', strlen($key))),
            };
            return ['kty' => 'OKP', 'crv' => 'Ed25519', 'x' => Base64Url::encode($public)];
        }
        $details = openssl_pkey_get_details($key) ?: throw MalformedToken::jwk('expected a readable key');
        if (isset($details['rsa'])) {
            return ['kty' => 'RSA', 'n' => Base64Url::encode($details['rsa']['n']), 'e' => Base64Url::encode($details['rsa']['e'])];
        }
        foreach (self::CURVES as $crv => [$curve, , $bytes]) {
            if (($details['ec']['curve_name'] ?? '') === $curve) {
                return [
                    'kty' => 'EC',
                    'crv' => $crv,
                    'x' => Base64Url::encode(str_pad($details['ec']['x'], $bytes, "\0", STR_PAD_LEFT)),
                    'y' => Base64Url::encode(str_pad($details['ec']['y'], $bytes, "\0", STR_PAD_LEFT)),
                ];
            }
        }
        throw MalformedToken::jwk('expected an RSA key or an EC key on P-256, P-384 or P-521');
    }

    /** @param array<string, mixed> $jwk */
    private static function importEc(array $jwk): OpenSSLAsymmetricKey
    {
        $crv = $jwk['crv'] ?? null;
        [$curve, $oid, $bytes] = (is_string($crv) ? self::CURVES[$crv] ?? null : null)
            ?? throw MalformedToken::jwk(sprintf('expected crv P-256, P-384 or P-521, got %s', json_encode($crv)));
        $x = self::member($jwk, 'x', $bytes);
        $y = self::member($jwk, 'y', $bytes);
        if (isset($jwk['d'])) {
            $key = openssl_pkey_new(['ec' => ['curve_name' => $curve, 'd' => self::member($jwk, 'd', $bytes)]]);
            $details = $key === false ? false : openssl_pkey_get_details($key);
            // Both coordinates: x alone leaves y's sign open, and a JWK is what others verify with.
            $point = $details === false ? '' : str_pad($details['ec']['x'], $bytes, "\0", STR_PAD_LEFT) . str_pad($details['ec']['y'], $bytes, "\0", STR_PAD_LEFT);
            if ($point !== $x . $y) {
                OpensslErrors::drain();
                throw MalformedToken::jwk('expected d to belong to the public point x, y; it does not');
            }
            return $key;
        }
        $spki = Der::sequence(Der::sequence(Der::oid(self::EC_PUBLIC_KEY_OID), Der::oid($oid)), Der::bitString("\x04" . $x . $y));
        return self::publicFromDer($spki, 'EC point not on the curve');
    }

    /** @param array<string, mixed> $jwk */
    private static function importRsa(array $jwk): OpenSSLAsymmetricKey
    {
        $n = self::member($jwk, 'n');
        $e = self::member($jwk, 'e');
        if (isset($jwk['d'])) {
            $parts = ['n' => $n, 'e' => $e, 'd' => self::member($jwk, 'd')];
            foreach (['p' => 'p', 'q' => 'q', 'dp' => 'dmp1', 'dq' => 'dmq1', 'qi' => 'iqmp'] as $member => $name) {
                if (isset($jwk[$member])) {
                    $parts[$name] = self::member($jwk, $member);
                }
            }
            $key = openssl_pkey_new(['rsa' => $parts]);
            if ($key === false) {
                OpensslErrors::drain();
                throw MalformedToken::jwk('OpenSSL refused the RSA private key');
            }
            return $key;
        }
        $spki = Der::sequence(
            Der::sequence(Der::oid(self::RSA_ENCRYPTION_OID), Der::nullValue()),
            Der::bitString(Der::sequence(Der::unsignedInteger($n), Der::unsignedInteger($e))),
        );
        return self::publicFromDer($spki, 'RSA public key');
    }

    /** @param array<string, mixed> $jwk */
    private static function importOkp(array $jwk): string
    {
        if (($jwk['crv'] ?? null) !== 'Ed25519') {
            throw MalformedToken::jwk(sprintf('expected crv Ed25519, got %s', json_encode($jwk['crv'] ?? null)));
        }
        $x = self::member($jwk, 'x', SODIUM_CRYPTO_SIGN_PUBLICKEYBYTES);
        if (!isset($jwk['d'])) {
            return $x;
        }
        $secret = sodium_crypto_sign_secretkey(sodium_crypto_sign_seed_keypair(self::member($jwk, 'd', SODIUM_CRYPTO_SIGN_SEEDBYTES)));
        if (sodium_crypto_sign_publickey_from_secretkey($secret) !== $x) {
            throw MalformedToken::jwk('expected d to belong to the public key x; it does not');
        }
        return $secret;
    }

    /** @param array<string, mixed> $jwk */
    private static function member(array $jwk, string $name, ?int $bytes = null): string
    {
        if (!is_string($jwk[$name] ?? null)) {
            throw MalformedToken::jwk(sprintf('expected a base64url string member "%s"', $name));
        }
        $value = Base64Url::decode($jwk[$name], 'JWK member ' . $name);
        if ($value === '') {
            // Given an empty d, openssl_pkey_new() makes an RSA "private" key whose d is 0.
            throw MalformedToken::jwk(sprintf('expected a non-empty member "%s"', $name));
        }
        if ($bytes !== null && strlen($value) !== $bytes) {
            throw MalformedToken::jwk(sprintf('expected "%s" of %d bytes, got %d', $name, $bytes, strlen($value)));
        }
        return $value;
    }

    private static function publicFromDer(string $der, string $what): OpenSSLAsymmetricKey
    {
        $key = openssl_pkey_get_public(Der::pem('PUBLIC KEY', $der));
        // OpenSSL's PEM decoders queue a reason for each format they tried, even when one then
        // succeeded: left there, the next openssl_error_string() would blame them on a later call.
        OpensslErrors::drain();
        return $key ?: throw MalformedToken::jwk(sprintf('OpenSSL refused the %s', $what));
    }
}
