<?php

declare(strict_types=1);

namespace PhpCryptoBench\EcKeygen;

use OpenSSLAsymmetricKey;
use PhpCryptoBench\Exception\KeyOperationFailed;

/** RSA of one modulus size through ext-openssl, for comparison at equal security: PKCS#1 v1.5 with SHA-256. */
final class RsaScheme implements KeyScheme
{
    /** RSA under 2048 bits is disallowed (NIST SP 800-131A): this project never generates it. */
    public const MINIMUM_BITS = 2048;

    public function __construct(private readonly int $modulusBits)
    {
        if ($modulusBits < self::MINIMUM_BITS) {
            throw KeyOperationFailed::of($this->name(), 'key generation', sprintf('expected at least %d bits, got %d', self::MINIMUM_BITS, $modulusBits));
        }
    }

    public function name(): string
    {
        return 'RSA-' . $this->modulusBits;
    }

    public function describe(): array
    {
        return [
            'interface' => 'openssl',
            'curve' => $this->name(),
            'family' => 'rsa',
            'organization' => 'RSA (PKCS #1)',
            'field_bits' => $this->modulusBits,
            'key_bits' => $this->modulusBits,
            'security_bits' => SecurityLevel::forRsa($this->modulusBits),
        ];
    }

    public function operations(): array
    {
        return [self::KEYGEN, self::SIGN, self::VERIFY];
    }

    public function generate(): OpenSSLAsymmetricKey
    {
        $key = @openssl_pkey_new(['private_key_type' => OPENSSL_KEYTYPE_RSA, 'private_key_bits' => $this->modulusBits]);
        if ($key === false) {
            throw KeyOperationFailed::of($this->name(), 'key generation', OpensslCurve::errors());
        }
        $details = openssl_pkey_get_details($key);
        if ($details === false || $details['bits'] !== $this->modulusBits) {
            throw KeyOperationFailed::of($this->name(), 'key generation', sprintf('expected a %d-bit modulus, got %s', $this->modulusBits, $details === false ? 'no details' : $details['bits']));
        }
        return $key;
    }

    public function publicKey(mixed $key): OpenSSLAsymmetricKey
    {
        $details = $key instanceof OpenSSLAsymmetricKey ? openssl_pkey_get_details($key) : false;
        $public = $details === false ? false : openssl_pkey_get_public((string) $details['key']);
        if ($public === false) {
            throw KeyOperationFailed::of($this->name(), 'exporting the public key', OpensslCurve::errors());
        }
        return $public;
    }

    public function sign(mixed $key, string $message): string
    {
        $signature = '';
        if (!$key instanceof OpenSSLAsymmetricKey || !@openssl_sign($message, $signature, $key, 'sha256')) {
            throw KeyOperationFailed::of($this->name(), 'RSA signing', OpensslCurve::errors());
        }
        return $signature;
    }

    public function verify(mixed $publicKey, string $message, string $signature): bool
    {
        return $publicKey instanceof OpenSSLAsymmetricKey && @openssl_verify($message, $signature, $publicKey, 'sha256') === 1;
    }

    public function derive(mixed $key, mixed $peerPublicKey): string
    {
        throw KeyOperationFailed::of($this->name(), 'key agreement', 'RSA has none');
    }
}
