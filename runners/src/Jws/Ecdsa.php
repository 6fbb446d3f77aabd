<?php

declare(strict_types=1);

namespace PhpCryptoBench\Jws;

use PhpCryptoBench\Exception\SignatureRejected;
use PhpCryptoBench\Exception\WeakKey;

/** ES256, ES384, ES512 (RFC 7518 section 3.4): ECDSA on P-256, P-384 and P-521 (not P-512) with R‖S signatures. */
final class Ecdsa implements Algorithm
{
    private function __construct(
        private readonly string $name,
        private readonly string $curve,
        private readonly string $hash,
        public readonly int $coordinateBytes,
        private readonly int $digest,
    ) {
    }

    public static function es256(): self
    {
        return new self('ES256', 'prime256v1', 'sha256', 32, OPENSSL_ALGO_SHA256);
    }

    public static function es384(): self
    {
        return new self('ES384', 'secp384r1', 'sha384', 48, OPENSSL_ALGO_SHA384);
    }

    public static function es512(): self
    {
        return new self('ES512', 'secp521r1', 'sha512', 66, OPENSSL_ALGO_SHA512);
    }

    public function name(): string
    {
        return $this->name;
    }

    public function curve(): string
    {
        return $this->curve;
    }

    public function hash(): string
    {
        return $this->hash;
    }

    /** The hash as ext-openssl's OPENSSL_ALGO_* constant (see Rsa::DIGESTS), what openssl_sign() and openssl_verify() are given. */
    public function digest(): int
    {
        return $this->digest;
    }

    public function facts(mixed $material, bool $forSigning, KeyDetails $details): KeyFacts
    {
        $found = OpensslKeyDetails::require($details, $this->name, $material, OPENSSL_KEYTYPE_EC, 'an EC key on ' . $this->curve);
        $curve = $found['ec']['curve_name'] ?? 'an unnamed curve';
        if ($curve !== $this->curve) {
            // ES256 with a P-384 key verifies nothing an attacker could not also forge elsewhere: refuse.
            throw WeakKey::wrongType($this->name, 'a key on ' . $this->curve, 'a key on ' . $curve);
        }
        $private = OpensslKeyDetails::requireHalf($found, $this->name, $forSigning);
        return new KeyFacts('EC', $found['bits'], $curve, $private);
    }

    /** The key's material is an EC key object: facts(), called when the Key was made, refused anything else. */
    public function sign(Key $key, string $input): string
    {
        $der = '';
        if (!openssl_sign($input, $der, $key->material, $this->digest)) {
            throw SignatureRejected::signingFailed($this->name, implode('; ', OpensslErrors::drain()));
        }
        return EcdsaSignature::derToRaw($der, $this->coordinateBytes);
    }

    public function verify(Key $key, string $input, string $signature): bool
    {
        $der = EcdsaSignature::rawToDer($signature, $this->coordinateBytes, $this->name);
        $valid = openssl_verify($input, $der, $key->material, $this->digest) === 1;
        if (!$valid) {
            OpensslErrors::drain();
        }
        return $valid;
    }
}
