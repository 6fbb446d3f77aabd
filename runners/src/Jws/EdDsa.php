<?php

declare(strict_types=1);

namespace PhpCryptoBench\Jws;

use PhpCryptoBench\Exception\SignatureRejected;
use PhpCryptoBench\Exception\WeakKey;
use SodiumException;

/** EdDSA with Ed25519 (RFC 8037) through sodium: 64-byte secret keys sign, 32-byte public keys verify. */
final class EdDsa implements Algorithm
{
    public function name(): string
    {
        return 'EdDSA';
    }

    public function checkKey(mixed $key, bool $forSigning): void
    {
        $expected = $forSigning ? SODIUM_CRYPTO_SIGN_SECRETKEYBYTES : SODIUM_CRYPTO_SIGN_PUBLICKEYBYTES;
        if (!is_string($key) || strlen($key) !== $expected) {
            throw WeakKey::wrongType('EdDSA', sprintf('a %d-byte Ed25519 %s key', $expected, $forSigning ? 'secret' : 'public'), is_string($key) ? strlen($key) . ' bytes' : get_debug_type($key));
        }
    }

    public function sign(mixed $key, string $input): string
    {
        try {
            return sodium_crypto_sign_detached($input, (string) $key);
        } catch (SodiumException $e) {
            throw SignatureRejected::signingFailed('EdDSA', $e->getMessage());
        }
    }

    public function verify(mixed $key, string $input, string $signature): bool
    {
        if (strlen($signature) !== SODIUM_CRYPTO_SIGN_BYTES) {
            throw SignatureRejected::length('EdDSA', SODIUM_CRYPTO_SIGN_BYTES, strlen($signature));
        }
        try {
            return sodium_crypto_sign_verify_detached($signature, $input, (string) $key);
        } catch (SodiumException) {
            return false;
        }
    }
}
