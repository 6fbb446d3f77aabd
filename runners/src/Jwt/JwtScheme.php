<?php

declare(strict_types=1);

namespace PhpCryptoBench\Jwt;

use PhpCryptoBench\Exception\KeyOperationFailed;
use PhpCryptoBench\Jws\Algorithm;
use PhpCryptoBench\Jws\Algorithms;
use PhpCryptoBench\Jws\Ecdsa;
use PhpCryptoBench\Jws\Hmac;
use PhpCryptoBench\Jws\Jwk;
use PhpCryptoBench\Jws\Key;
use PhpCryptoBench\Native\NativePrimitive;

/** One JWS algorithm with the kind of key it takes, and how to make such a key. */
final class JwtScheme
{
    /** RS and PS share 2048-bit keys, the seed's size and the floor this project allows. */
    public const RSA_BITS = 2048;

    private function __construct(
        public readonly Algorithm $algorithm,
        public readonly string $keyType,
        public readonly int $keyBits,
    ) {
    }

    public static function named(string $alg): self
    {
        $algorithm = Algorithms::named($alg);
        return match (true) {
            $algorithm instanceof Ecdsa => new self($algorithm, 'EC ' . $algorithm->curve(), $algorithm->coordinateBytes === 66 ? 521 : $algorithm->coordinateBytes * 8),
            $algorithm instanceof Hmac => new self($algorithm, 'oct', $algorithm->bytes() * 8),
            $alg === 'EdDSA' => new self($algorithm, 'OKP Ed25519', 255),
            default => new self($algorithm, 'RSA', self::RSA_BITS),
        };
    }

    public function name(): string
    {
        return $this->algorithm->name();
    }

    /**
     * The name the curves experiment (ec_keygen) times this kind of key's generation under: RSA-2048,
     * prime256v1, Ed25519; null for an HMAC secret, which it does not make.
     */
    public function keyScheme(): ?string
    {
        return match ($this->keyType) {
            'oct' => null,
            'RSA' => 'RSA-' . $this->keyBits,
            default => explode(' ', $this->keyType, 2)[1],
        };
    }

    /** A fresh private key (or HMAC secret) for this algorithm. */
    public function generate(): mixed
    {
        $algorithm = $this->algorithm;
        $key = match (true) {
            $algorithm instanceof Ecdsa => openssl_pkey_new(['private_key_type' => OPENSSL_KEYTYPE_EC, 'curve_name' => $algorithm->curve()]),
            $algorithm instanceof Hmac => random_bytes($algorithm->bytes()),
            $this->keyType === 'OKP Ed25519' => sodium_crypto_sign_secretkey(sodium_crypto_sign_keypair()),
            default => openssl_pkey_new(['private_key_type' => OPENSSL_KEYTYPE_RSA, 'private_key_bits' => $this->keyBits]),
        };
        if ($key === false) {
            throw KeyOperationFailed::of($this->name(), 'key generation', (string) openssl_error_string());
        }
        return $key;
    }

    public function signingKey(mixed $private): Key
    {
        return Key::forSigning($this->algorithm, $private);
    }

    /** The verification key as a verifier would hold it: imported from the published public JWK. */
    public function verificationKey(mixed $private): Key
    {
        $material = is_string($private) && $this->keyType === 'oct' ? $private : Jwk::import(Jwk::publicOf($private));
        return Key::forVerification($this->algorithm, $material);
    }

    /**
     * What `openssl speed` measures of the same primitive: the RSA modulus or ECDSA curve, Ed25519,
     * or HMAC with the same hash on blocks as long as the signing input.
     */
    public function nativePrimitive(int $signingInputBytes): NativePrimitive
    {
        $algorithm = $this->algorithm;
        return match (true) {
            $algorithm instanceof Ecdsa => NativePrimitive::publicKey('ecdsa' . ['prime256v1' => 'p256', 'secp384r1' => 'p384', 'secp521r1' => 'p521'][$algorithm->curve()]),
            $algorithm instanceof Hmac => NativePrimitive::hmac($algorithm->hash(), $signingInputBytes),
            $this->keyType === 'OKP Ed25519' => NativePrimitive::publicKey('ed25519'),
            default => NativePrimitive::publicKey('rsa' . $this->keyBits),
        };
    }

    /** @return array<string, string> the JWK a verifier needs: public, or for HMAC the (throwaway) secret */
    public function publishedJwk(mixed $private): array
    {
        $jwk = $this->keyType === 'oct' ? ['kty' => 'oct', 'k' => \PhpCryptoBench\Jws\Base64Url::encode((string) $private)] : Jwk::publicOf($private);
        return $jwk + ['alg' => $this->name(), 'use' => 'sig'];
    }
}
