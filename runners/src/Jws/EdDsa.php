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

    /** Ed25519's group order has 253 bits (RFC 8032 section 5.1: L = 2^252 + ...). */
    private const ORDER_BITS = 253;

    public function facts(mixed $material, bool $forSigning, KeyDetails $details): KeyFacts
    {
        $expected = $forSigning ? SODIUM_CRYPTO_SIGN_SECRETKEYBYTES : SODIUM_CRYPTO_SIGN_PUBLICKEYBYTES;
        if (!is_string($material) || strlen($material) !== $expected) {
            throw WeakKey::wrongType('EdDSA', sprintf('a %d-byte Ed25519 %s key', $expected, $forSigning ? 'secret' : 'public'), is_string($material) ? strlen($material) . ' bytes' : get_debug_type($material));
        }
        return new KeyFacts('OKP', self::ORDER_BITS, 'Ed25519', $forSigning);
    }

    public function sign(Key $key, string $input): string
    {
        try {
            return sodium_crypto_sign_detached($input, $key->material);
        } catch (SodiumException $e) {
            throw SignatureRejected::signingFailed('EdDSA', $e->getMessage());
        }
    }

    public function verify(Key $key, string $input, string $signature): bool
    {
        if (strlen($signature) !== SODIUM_CRYPTO_SIGN_BYTES) {
            throw SignatureRejected::length('EdDSA', SODIUM_CRYPTO_SIGN_BYTES, strlen($signature));
        }
        try {
            return sodium_crypto_sign_verify_detached($signature, $input, $key->material);
        } catch (SodiumException) {
            return false;
        }
    }
}
