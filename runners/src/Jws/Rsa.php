<?php

declare(strict_types=1);

namespace PhpCryptoBench\Jws;

use PhpCryptoBench\Exception\SignatureRejected;
use PhpCryptoBench\Exception\WeakKey;

/**
 * RS256/384/512 (RSASSA-PKCS1-v1_5) and PS256/384/512 (RSASSA-PSS, MGF1 with the same hash and a
 * salt as long as the hash, RFC 7518 section 3.5). PHP's openssl_sign() has no padding option; a PS
 * algorithm signs and verifies with the key's RSASSA-PSS form (RsaPssKey, made once with the key),
 * whose parameters make OpenSSL pad with exactly this PSS.
 */
final class Rsa implements Algorithm
{
    public const MINIMUM_BITS = 2048;
    /**
     * The hash as ext-openssl's constant, by the name's digits: openssl_sign()/openssl_verify() given
     * the constant take EVP_sha256() and the like directly; given the name, they look it up in
     * OpenSSL's name table on every call (the same EVP_MD either way).
     */
    private const DIGESTS = ['256' => OPENSSL_ALGO_SHA256, '384' => OPENSSL_ALGO_SHA384, '512' => OPENSSL_ALGO_SHA512];

    private function __construct(
        private readonly string $name,
        private readonly string $hash,
        private readonly bool $pss,
        private readonly int $hashBytes,
        private readonly int $digest,
    ) {
    }

    public static function named(string $name): self
    {
        $bits = substr($name, 2);
        $hash = 'sha' . $bits;
        return new self($name, $hash, str_starts_with($name, 'PS'), strlen(hash($hash, '', true)), self::DIGESTS[$bits]);
    }

    public function name(): string
    {
        return $this->name;
    }

    public function facts(mixed $material, bool $forSigning, KeyDetails $details): KeyFacts
    {
        $found = OpensslKeyDetails::require($details, $this->name, $material, OPENSSL_KEYTYPE_RSA, 'an RSA key');
        if ($found['bits'] < self::MINIMUM_BITS) {
            throw WeakKey::rsaTooShort($this->name, $found['bits']);
        }
        $private = OpensslKeyDetails::requireHalf($found, $this->name, $forSigning);
        $pssForm = $this->pss ? RsaPssKey::of($found['rsa'], $this->name, $this->hash, $this->hashBytes) : null;
        return new KeyFacts('RSA', $found['bits'], null, $private, $pssForm);
    }

    /** PS signs with the key's RSASSA-PSS form, RS with the key itself: facts() made the one and checked the other. */
    public function sign(Key $key, string $input): string
    {
        $signature = '';
        if (!openssl_sign($input, $signature, $this->pss ? $key->facts->pssForm : $key->material, $this->digest)) {
            throw SignatureRejected::signingFailed($this->name, implode('; ', OpensslErrors::drain()));
        }
        return $signature;
    }

    public function verify(Key $key, string $input, string $signature): bool
    {
        // RFC 8017 section 8.1.2 step 1 (and 8.2.2): a signature is exactly as long as the modulus.
        $bytes = $key->facts->modulusBytes();
        if (strlen($signature) !== $bytes) {
            throw SignatureRejected::length($this->name, $bytes, strlen($signature));
        }
        $valid = openssl_verify($input, $signature, $this->pss ? $key->facts->pssForm : $key->material, $this->digest) === 1;
        if (!$valid) {
            OpensslErrors::drain();
        }
        return $valid;
    }

    public function hash(): string
    {
        return $this->hash;
    }

    /** The hash as ext-openssl's OPENSSL_ALGO_* constant, what openssl_sign() and openssl_verify() are given. */
    public function digest(): int
    {
        return $this->digest;
    }

    public function isPss(): bool
    {
        return $this->pss;
    }
}
