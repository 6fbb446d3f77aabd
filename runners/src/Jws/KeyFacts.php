<?php

declare(strict_types=1);

namespace PhpCryptoBench\Jws;

use OpenSSLAsymmetricKey;

/**
 * What a key is, read once when its Key is made: the family (RSA, EC, OKP, oct), its size in bits
 * (the modulus, the curve's order, or the secret's length), the curve if it has one, and whether
 * it holds a private half; for PS algorithms, the same key as an RSASSA-PSS key (RsaPssKey), made
 * once here too. Signing and verifying read these; they never ask OpenSSL again.
 */
final class KeyFacts
{
    public function __construct(
        public readonly string $family,
        public readonly int $bits,
        public readonly ?string $curve,
        public readonly bool $private,
        public readonly ?OpenSSLAsymmetricKey $pssForm = null,
    ) {
    }

    /** The length of a signature over this RSA key's modulus (RFC 8017 section 8.1: k octets). */
    public function modulusBytes(): int
    {
        return intdiv($this->bits + 7, 8);
    }
}
