<?php

declare(strict_types=1);

namespace PhpCryptoBench\Jws;

use PhpCryptoBench\Exception\KeyUseRefused;
use PhpCryptoBench\Exception\MalformedToken;
use PhpCryptoBench\Exception\WeakKey;

/**
 * Key material bound to exactly one algorithm (RFC 8725 section 3.1): a token is verified only
 * with the algorithm its key was created for, whatever its header says. Everything known about
 * the key (family, size, curve, private or public) is read and checked here, once; signing and
 * verifying then only sign and verify.
 */
final class Key
{
    private function __construct(
        public readonly Algorithm $algorithm,
        public readonly mixed $material,
        public readonly bool $signs,
        public readonly KeyFacts $facts,
    ) {
    }

    /** @throws WeakKey */
    public static function forSigning(Algorithm $algorithm, mixed $material, KeyDetails $details = new OpensslKeyDetails()): self
    {
        return new self($algorithm, $material, true, $algorithm->facts($material, true, $details));
    }

    /** @throws WeakKey */
    public static function forVerification(Algorithm $algorithm, mixed $material, KeyDetails $details = new OpensslKeyDetails()): self
    {
        return new self($algorithm, $material, false, $algorithm->facts($material, false, $details));
    }

    /**
     * A JWK to sign with, if it declares that use (JwkUsage) and fits the algorithm.
     *
     * @param array<string, mixed> $jwk
     * @throws KeyUseRefused|MalformedToken|WeakKey
     */
    public static function signingJwk(Algorithm $algorithm, array $jwk): self
    {
        JwkUsage::check($jwk, JwkUsage::SIGN, $algorithm);
        return self::forSigning($algorithm, Jwk::import($jwk));
    }

    /**
     * A JWK to verify with, if it declares that use (JwkUsage) and fits the algorithm.
     *
     * @param array<string, mixed> $jwk
     * @throws KeyUseRefused|MalformedToken|WeakKey
     */
    public static function verificationJwk(Algorithm $algorithm, array $jwk): self
    {
        JwkUsage::check($jwk, JwkUsage::VERIFY, $algorithm);
        return self::forVerification($algorithm, Jwk::import($jwk));
    }
}
