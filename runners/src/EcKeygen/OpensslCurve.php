<?php

declare(strict_types=1);

namespace PhpCryptoBench\EcKeygen;

use OpenSSLAsymmetricKey;
use PhpCryptoBench\Exception\KeyOperationFailed;

/** A named curve through ext-openssl: openssl_pkey_new, ECDSA via openssl_sign, ECDH via openssl_pkey_derive. */
final class OpensslCurve implements KeyScheme
{
    /**
     * @param bool $signs whether ECDSA works with this curve's keys (SM2's do not, in PHP)
     * @param bool $derives whether ECDH works with them
     */
    public function __construct(
        private readonly string $curve,
        private readonly CurveClassification $classification,
        private readonly int $fieldBits,
        private readonly int $orderBits,
        private readonly bool $signs = true,
        private readonly bool $derives = true,
    ) {
    }

    public function name(): string
    {
        return $this->curve;
    }

    public function describe(): array
    {
        return [
            'interface' => 'openssl',
            'curve' => $this->curve,
            'family' => $this->classification->family,
            'organization' => $this->classification->organization,
            'field_bits' => $this->fieldBits,
            'key_bits' => $this->orderBits,
            'security_bits' => SecurityLevel::forEcc($this->orderBits),
        ];
    }

    public function operations(): array
    {
        return array_values(array_filter([self::KEYGEN, $this->signs ? self::SIGN : null, $this->signs ? self::VERIFY : null, $this->derives ? self::DERIVE : null]));
    }

    public function generate(): OpenSSLAsymmetricKey
    {
        return self::newKey($this->curve);
    }

    /** @throws KeyOperationFailed */
    public static function newKey(string $curve): OpenSSLAsymmetricKey
    {
        self::errors();
        $key = @openssl_pkey_new(['private_key_type' => OPENSSL_KEYTYPE_EC, 'curve_name' => $curve]);
        if ($key === false) {
            throw KeyOperationFailed::of($curve, 'key generation', self::errors());
        }
        return $key;
    }

    public function publicKey(mixed $key): OpenSSLAsymmetricKey
    {
        $details = $key instanceof OpenSSLAsymmetricKey ? openssl_pkey_get_details($key) : false;
        $public = $details === false ? false : openssl_pkey_get_public((string) $details['key']);
        if ($public === false) {
            throw KeyOperationFailed::of($this->curve, 'exporting the public key', self::errors());
        }
        return $public;
    }

    public function sign(mixed $key, string $message): string
    {
        $signature = '';
        if (!$key instanceof OpenSSLAsymmetricKey || !@openssl_sign($message, $signature, $key, $this->digest())) {
            throw KeyOperationFailed::of($this->curve, 'ECDSA signing', self::errors());
        }
        return $signature;
    }

    public function verify(mixed $publicKey, string $message, string $signature): bool
    {
        return $publicKey instanceof OpenSSLAsymmetricKey && @openssl_verify($message, $signature, $publicKey, $this->digest()) === 1;
    }

    public function derive(mixed $key, mixed $peerPublicKey): string
    {
        $secret = $key instanceof OpenSSLAsymmetricKey && $peerPublicKey instanceof OpenSSLAsymmetricKey
            ? @openssl_pkey_derive($peerPublicKey, $key) : false;
        if ($secret === false || $secret === '') {
            throw KeyOperationFailed::of($this->curve, 'ECDH derivation', self::errors());
        }
        return $secret;
    }

    /** A hash as strong as the curve (SP 800-57): SHA-256 up to 128-bit security, then SHA-384, SHA-512. */
    private function digest(): string
    {
        return match (true) {
            SecurityLevel::forEcc($this->orderBits) >= 256 => 'sha512',
            SecurityLevel::forEcc($this->orderBits) >= 192 => 'sha384',
            default => 'sha256',
        };
    }

    /**
     * OpenSSL's queued error texts, emptied so the next failure reports only its own. PHP tries to
     * read a key argument as PEM text first; that attempt's "no start line" is noise, left out.
     */
    public static function errors(): string
    {
        $errors = [];
        while (($error = openssl_error_string()) !== false) {
            if (!str_contains($error, 'PEM routines::no start line')) {
                $errors[] = $error;
            }
        }
        return implode('; ', array_unique($errors));
    }
}
