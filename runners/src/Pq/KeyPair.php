<?php

declare(strict_types=1);

namespace PhpCryptoBench\Pq;

use OpenSSLAsymmetricKey;
use PhpCryptoBench\Exception\KeyOperationFailed;
use PhpCryptoBench\Jws\Base64Url;
use PhpCryptoBench\Jws\Jwk;

/**
 * A key made by the CLI, as PHP holds it: the private key's PEM and object, the public key's PEM,
 * object and SubjectPublicKeyInfo (DER), the public key's bytes inside it, and the public JWK a
 * verifier would publish (for ML-DSA the key type AKP of the IETF's ML-DSA for JOSE: `pub` is the
 * public key's bytes).
 */
final class KeyPair
{
    private function __construct(
        public readonly PqScheme $scheme,
        public readonly string $privatePem,
        public readonly OpenSSLAsymmetricKey $private,
        public readonly string $publicPem,
        public readonly OpenSSLAsymmetricKey $public,
        public readonly string $spki,
        public readonly string $publicKeyBytes,
    ) {
    }

    /** @throws KeyOperationFailed when PHP cannot load the key or read its public half */
    public static function fromPem(PqScheme $scheme, string $privatePem): self
    {
        $private = openssl_pkey_get_private($privatePem);
        if ($private === false) {
            throw KeyOperationFailed::of($scheme->name, 'openssl_pkey_get_private() of the key `openssl genpkey` made', self::errors());
        }
        $details = openssl_pkey_get_details($private);
        $publicPem = is_array($details) ? (string) ($details['key'] ?? '') : '';
        $public = openssl_pkey_get_public($publicPem);
        if ($public === false) {
            throw KeyOperationFailed::of($scheme->name, 'openssl_pkey_get_public() of the public key openssl_pkey_get_details() gave', self::errors());
        }
        $spki = base64_decode((string) preg_replace('/-----[A-Z ]+-----|\s+/', '', $publicPem), true);
        if ($spki === false || $spki === '') {
            throw KeyOperationFailed::of($scheme->name, 'reading the public key PEM', 'not base64 between its lines');
        }
        return new self($scheme, $privatePem, $private, $publicPem, $public, $spki, self::subjectPublicKey($scheme, $spki));
    }

    /**
     * The public JWK a verifier fetches (a JWKS entry), with its algorithm and use.
     *
     * @return array<string, string>
     */
    public function publicJwk(): array
    {
        $jwk = match ($this->scheme->family) {
            'ml-dsa' => ['kty' => 'AKP', 'alg' => $this->scheme->joseAlg, 'pub' => Base64Url::encode($this->publicKeyBytes)],
            'eddsa' => ['kty' => 'OKP', 'crv' => 'Ed25519', 'x' => Base64Url::encode($this->publicKeyBytes)],
            default => Jwk::publicOf($this->public),
        };
        return $jwk + ['alg' => $this->scheme->joseAlg, 'use' => 'sig'];
    }

    /**
     * The BIT STRING of a SubjectPublicKeyInfo (RFC 5280, section 4.1): ML-DSA's and Ed25519's raw
     * public key, an EC point, or RSA's RSAPublicKey. Read here, not by PHP: openssl_pkey_get_details()
     * gives no ML-DSA key's bytes.
     *
     * @throws KeyOperationFailed
     */
    public static function subjectPublicKey(PqScheme $scheme, string $spki): string
    {
        $offset = 0;
        $info = self::element($scheme, $spki, $offset, 0x30, 'SubjectPublicKeyInfo');
        if ($offset !== strlen($spki)) {
            throw self::unreadable($scheme, 'bytes after the SubjectPublicKeyInfo');
        }
        $inner = 0;
        self::element($scheme, $info, $inner, 0x30, 'AlgorithmIdentifier');
        $bits = self::element($scheme, $info, $inner, 0x03, 'subjectPublicKey BIT STRING');
        if ($bits === '' || $bits[0] !== "\0") {
            throw self::unreadable($scheme, 'a BIT STRING of whole bytes');
        }
        return substr($bits, 1);
    }

    /** The content of the DER element at $offset, which must carry $tag; $offset moves past it. */
    private static function element(PqScheme $scheme, string $der, int &$offset, int $tag, string $what): string
    {
        if (!isset($der[$offset + 1]) || ord($der[$offset]) !== $tag) {
            throw self::unreadable($scheme, sprintf('%s (tag 0x%02x) at byte %d', $what, $tag, $offset));
        }
        $length = ord($der[$offset + 1]);
        $offset += 2;
        if ($length & 0x80) {
            $count = $length & 0x7f;
            if ($count < 1 || $count > 3 || !isset($der[$offset + $count - 1])) {
                throw self::unreadable($scheme, sprintf('a length of %s that fits', $what));
            }
            $length = (int) hexdec(bin2hex(substr($der, $offset, $count)));
            $offset += $count;
        }
        if ($offset + $length > strlen($der)) {
            throw self::unreadable($scheme, sprintf('%s within the data', $what));
        }
        $content = substr($der, $offset, $length);
        $offset += $length;
        return $content;
    }

    private static function unreadable(PqScheme $scheme, string $expected): KeyOperationFailed
    {
        return KeyOperationFailed::of($scheme->name, 'reading its SubjectPublicKeyInfo', 'expected ' . $expected);
    }

    private static function errors(): string
    {
        $errors = [];
        while (($error = openssl_error_string()) !== false) {
            $errors[] = $error;
        }
        return implode('; ', $errors);
    }
}
