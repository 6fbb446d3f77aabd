<?php

declare(strict_types=1);

namespace PhpCryptoBench\Pitfalls;

use OpenSSLAsymmetricKey;
use PhpCryptoBench\Exception\VerificationFailed;
use PhpCryptoBench\Native\NativePrimitive;

/**
 * openssl_pkey_new() for a P-256 key reads an OpenSSL configuration file on every call: the
 * system's openssl.cnf by default, or the file its 'config' option names (runners/openssl-minimal.cnf).
 */
final class KeyConfigPerCall implements Pitfall
{
    public const NAME = 'pkey-new-config';
    private const OPTIONS = ['private_key_type' => OPENSSL_KEYTYPE_EC, 'curve_name' => 'prime256v1'];
    private const MESSAGE = 'a message the new key signs';

    public function __construct(private readonly string $minimalConfig)
    {
        if (!is_file($minimalConfig)) {
            throw VerificationFailed::operationFailed(self::NAME, sprintf('expected the configuration file %s, found none', $minimalConfig));
        }
    }

    public function name(): string
    {
        return self::NAME;
    }

    public function variants(): array
    {
        return [
            new PitfallCase(self::NAME, 'default-config', static fn (): OpenSSLAsymmetricKey|false => openssl_pkey_new(self::OPTIONS), self::problem(...)),
            new PitfallCase(self::NAME, 'minimal-config', fn (): OpenSSLAsymmetricKey|false => openssl_pkey_new(self::OPTIONS + ['config' => $this->minimalConfig]), self::problem(...)),
        ];
    }

    /** What is wrong with a generated key: it must be a P-256 private key that signs what its public half verifies. */
    public static function problem(mixed $key): ?string
    {
        $details = $key instanceof OpenSSLAsymmetricKey ? openssl_pkey_get_details($key) : false;
        if ($details === false || ($details['ec']['curve_name'] ?? null) !== 'prime256v1' || !isset($details['ec']['d'])) {
            return 'expected a P-256 private key, got ' . ($details === false ? get_debug_type($key) : 'another key');
        }
        $signature = '';
        $public = openssl_pkey_get_public((string) $details['key']);
        if ($public === false || !openssl_sign(self::MESSAGE, $signature, $key, 'sha256') || openssl_verify(self::MESSAGE, $signature, $public, 'sha256') !== 1) {
            return 'expected the new key to sign what its public key verifies, it did not';
        }
        return null;
    }

    public function agreement(): string
    {
        foreach ($this->variants() as $case) {
            $case->once();
        }
        return self::NAME . ': with the default configuration and with runners/openssl-minimal.cnf, openssl_pkey_new() makes P-256 private keys that sign and verify';
    }

    public function native(): ?NativePrimitive
    {
        return null;
    }
}
