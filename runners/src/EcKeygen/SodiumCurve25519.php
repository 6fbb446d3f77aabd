<?php

declare(strict_types=1);

namespace PhpCryptoBench\EcKeygen;

use PhpCryptoBench\Exception\KeyOperationFailed;
use SodiumException;

/**
 * sodium's Curve25519 schemes: Ed25519 signatures (RFC 8032) or X25519 key agreement (RFC 7748).
 * Keys are sodium's keypair strings.
 */
final class SodiumCurve25519 implements KeyScheme
{
    private const FIELD_BITS = 255; // GF(2^255 - 19)
    private const ORDER_BITS = 253; // the prime subgroup's order, 2^252 + 27742317777372353535851937790883648493
    /**
     * SP 800-57's table would put a 253-bit order at 112 bits, but it rounds down a rho cost of
     * about 2^126; NIST SP 800-186 (section 3.1.2) and RFC 7748 rate both schemes at 128 bits.
     */
    private const SECURITY_BITS = 128;

    private function __construct(private readonly bool $signs)
    {
    }

    public static function ed25519(): self
    {
        return new self(true);
    }

    public static function x25519(): self
    {
        return new self(false);
    }

    public function name(): string
    {
        return $this->signs ? 'Ed25519' : 'X25519';
    }

    public function describe(): array
    {
        return [
            'interface' => 'sodium',
            'curve' => $this->name(),
            'family' => $this->signs ? 'ed25519' : 'x25519',
            'organization' => $this->signs ? 'IETF (RFC 8032)' : 'IETF (RFC 7748)',
            'field_bits' => self::FIELD_BITS,
            'key_bits' => self::ORDER_BITS,
            'security_bits' => self::SECURITY_BITS,
        ];
    }

    public function operations(): array
    {
        return $this->signs ? [self::KEYGEN, self::SIGN, self::VERIFY] : [self::KEYGEN, self::DERIVE];
    }

    public function generate(): string
    {
        return $this->signs ? sodium_crypto_sign_keypair() : sodium_crypto_box_keypair();
    }

    public function publicKey(mixed $key): string
    {
        return $this->signs ? sodium_crypto_sign_publickey((string) $key) : sodium_crypto_box_publickey((string) $key);
    }

    public function sign(mixed $key, string $message): string
    {
        if (!$this->signs) {
            throw KeyOperationFailed::of($this->name(), 'signing', 'X25519 keys only agree on secrets');
        }
        return sodium_crypto_sign_detached($message, sodium_crypto_sign_secretkey((string) $key));
    }

    public function verify(mixed $publicKey, string $message, string $signature): bool
    {
        try {
            return $this->signs && sodium_crypto_sign_verify_detached($signature, $message, (string) $publicKey);
        } catch (SodiumException) {
            return false;
        }
    }

    public function derive(mixed $key, mixed $peerPublicKey): string
    {
        if ($this->signs) {
            throw KeyOperationFailed::of($this->name(), 'key agreement', 'Ed25519 keys only sign');
        }
        try {
            // Throws on an all-zero result (a low-order peer key), as RFC 7748 section 6.1 asks.
            return sodium_crypto_scalarmult(sodium_crypto_box_secretkey((string) $key), (string) $peerPublicKey);
        } catch (SodiumException $e) {
            throw KeyOperationFailed::of($this->name(), 'X25519', $e->getMessage());
        }
    }
}
