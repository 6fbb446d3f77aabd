<?php

declare(strict_types=1);

namespace PhpCryptoBench\Pq;

use LogicException;
use PhpCryptoBench\EcKeygen\SecurityLevel;

/**
 * One signature algorithm of the post-quantum comparison: ML-DSA's three parameter sets (FIPS 204)
 * and the classical keys a PHP developer uses today, each as PHP reaches it (openssl_sign and
 * openssl_verify with a key made by `openssl genpkey`), with its JOSE name and what `openssl speed`
 * calls it.
 */
final class PqScheme
{
    public const ML_DSA = ['ML-DSA-44', 'ML-DSA-65', 'ML-DSA-87'];
    public const CLASSICAL = ['Ed25519', 'P-256', 'P-384', 'RSA-2048', 'RSA-3072'];

    /**
     * FIPS 204, tables 1 and 2: each parameter set's NIST security category and the sizes of its
     * public key and signature in bytes. The runner checks its keys and signatures against them.
     */
    public const FIPS204 = [
        'ML-DSA-44' => ['category' => 2, 'public_key_bytes' => 1312, 'signature_bytes' => 2420],
        'ML-DSA-65' => ['category' => 3, 'public_key_bytes' => 1952, 'signature_bytes' => 3309],
        'ML-DSA-87' => ['category' => 5, 'public_key_bytes' => 2592, 'signature_bytes' => 4627],
    ];

    /**
     * The classical strength a category stands for: category 2 is as hard as a SHA-256 collision
     * (128 bits), 3 as AES-192 key search, 5 as AES-256 (FIPS 204, section 4; NIST's call for proposals).
     */
    private const CATEGORY_BITS = [1 => 128, 2 => 128, 3 => 192, 4 => 192, 5 => 256];
    /** Ed25519 is rated at 128 bits (NIST SP 800-186, section 3.1.2; RFC 8032): not by its 253-bit order's row. */
    private const ED25519_BITS = 128;

    /**
     * @param list<string> $genpkey the arguments of `openssl genpkey` that make such a key
     * @param int|string $digest openssl_sign's fourth argument: 0 (the algorithm hashes, or signs the
     *                           message itself: ML-DSA, Ed25519) or the digest's name
     */
    private function __construct(
        public readonly string $name,
        public readonly string $family,
        public readonly string $joseAlg,
        public readonly array $genpkey,
        public readonly int|string $digest,
        public readonly string $nativeName,
        public readonly int $keyBits,
        /** ECDSA's R‖S coordinate size in a JWS (RFC 7518, section 3.4); 0 for the others. */
        public readonly int $coordinateBytes = 0,
    ) {
    }

    public static function named(string $name): self
    {
        if (isset(self::FIPS204[$name])) {
            return new self($name, 'ml-dsa', $name, ['-algorithm', $name], 0, $name, 0);
        }
        return match ($name) {
            'Ed25519' => new self($name, 'eddsa', 'EdDSA', ['-algorithm', 'ED25519'], 0, 'ed25519', 255),
            'P-256' => new self($name, 'ecdsa', 'ES256', ['-algorithm', 'EC', '-pkeyopt', 'ec_paramgen_curve:P-256'], 'sha256', 'ecdsap256', 256, 32),
            'P-384' => new self($name, 'ecdsa', 'ES384', ['-algorithm', 'EC', '-pkeyopt', 'ec_paramgen_curve:P-384'], 'sha384', 'ecdsap384', 384, 48),
            'RSA-2048', 'RSA-3072' => new self($name, 'rsa', 'RS256', ['-algorithm', 'RSA', '-pkeyopt', 'rsa_keygen_bits:' . substr($name, 4)], 'sha256', 'rsa' . substr($name, 4), (int) substr($name, 4)),
            // A programming error (callers name the constants above), not bad input: keep the trace.
            default => throw new LogicException(sprintf('expected one of %s, got "%s"', implode(', ', [...self::ML_DSA, ...self::CLASSICAL]), $name)),
        };
    }

    /** @return list<self> ML-DSA's parameter sets, then the classical keys */
    public static function all(): array
    {
        return array_map(self::named(...), [...self::ML_DSA, ...self::CLASSICAL]);
    }

    public function isPostQuantum(): bool
    {
        return $this->family === 'ml-dsa';
    }

    /** NIST's security category (FIPS 204); null for a classical key, which has none. */
    public function category(): ?int
    {
        return self::FIPS204[$this->name]['category'] ?? null;
    }

    /** The classical strength in bits: NIST SP 800-57's table for RSA and ECDSA, the category's for ML-DSA. */
    public function securityBits(): int
    {
        return match ($this->family) {
            'ml-dsa' => self::CATEGORY_BITS[(int) $this->category()],
            'eddsa' => self::ED25519_BITS,
            'ecdsa' => SecurityLevel::forEcc($this->keyBits),
            default => SecurityLevel::forRsa($this->keyBits),
        };
    }

    /** FIPS 204's public key size, or null where FIPS 204 says nothing. */
    public function expectedPublicKeyBytes(): ?int
    {
        return self::FIPS204[$this->name]['public_key_bytes'] ?? null;
    }

    /** FIPS 204's signature size (and Ed25519's 64, ECDSA's R‖S in a JWS), or null where it varies. */
    public function expectedSignatureBytes(): ?int
    {
        return self::FIPS204[$this->name]['signature_bytes'] ?? match ($this->family) {
            'eddsa' => 64,
            'rsa' => intdiv($this->keyBits, 8),
            default => null,
        };
    }
}
