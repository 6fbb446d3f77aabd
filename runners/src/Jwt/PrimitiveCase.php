<?php

declare(strict_types=1);

namespace PhpCryptoBench\Jwt;

use OpenSSLAsymmetricKey;
use PhpCryptoBench\Exception\VerificationFailed;
use PhpCryptoBench\Harness\BenchCase;
use PhpCryptoBench\Jws\Base64Url;
use PhpCryptoBench\Jws\Ecdsa;
use PhpCryptoBench\Jws\EcdsaSignature;
use PhpCryptoBench\Jws\Hmac;
use PhpCryptoBench\Jws\Key;
use PhpCryptoBench\Jws\Rsa;

/**
 * The raw primitive under a JWS signature, on a token's signing input (header.payload): what PHP
 * itself costs, without this project's JWS code. RS, PS and ES: openssl_sign/openssl_verify with the
 * hash as its OPENSSL_ALGO_* constant, as a caller writes it (PS with the key's RSASSA-PSS form), on
 * the very key objects the JWS layer's case uses (JwtCase::signingKey(), verificationKey()); EdDSA:
 * sodium; HS: hash_hmac and hash_equals.
 * Before timing, its result is checked against the JWS layer's token: the same signature where the
 * algorithm is deterministic, a signature that verifies where it is not. Every timed run is checked.
 */
final class PrimitiveCase implements BenchCase
{
    public const LAYER = 'primitive';

    private readonly string $input;
    private readonly string $signature;
    private readonly mixed $private;
    private readonly mixed $public;
    private string $last = '';
    private bool $allValid = true;

    public function __construct(
        private readonly JwtScheme $scheme,
        private readonly string $operation,
        Key $signingKey,
        Key $verificationKey,
        string $token,
    ) {
        [$header, $payload, $signature] = explode('.', $token);
        $this->input = $header . '.' . $payload;
        $algorithm = $scheme->algorithm;
        $jwsSignature = Base64Url::decode($signature);
        // OpenSSL checks ECDSA as DER: the token's R‖S converted once, before timing.
        $this->signature = $algorithm instanceof Ecdsa ? EcdsaSignature::rawToDer($jwsSignature, $algorithm->coordinateBytes, $algorithm->name()) : $jwsSignature;
        $this->private = $signingKey->facts->pssForm ?? $signingKey->material;
        $this->public = $verificationKey->facts->pssForm ?? $verificationKey->material;
        $this->checkAgainstTheJwsLayer();
    }

    public function key(): array
    {
        return ['alg' => $this->scheme->name(), 'operation' => $this->operation, 'layer' => self::LAYER];
    }

    public function label(): string
    {
        return sprintf('%s %s (raw primitive)', $this->scheme->name(), $this->operation);
    }

    public function bytesPerIteration(): int
    {
        return strlen($this->input);
    }

    public function signingInput(): string
    {
        return $this->input;
    }

    public function run(int $iterations): void
    {
        if ($this->operation === JwtCase::SIGN) {
            for ($i = 0; $i < $iterations; $i++) {
                $this->last = $this->sign();
            }
            return;
        }
        $all = true;
        for ($i = 0; $i < $iterations; $i++) {
            $all = $this->verifies($this->signature) && $all;
        }
        $this->allValid = $all;
    }

    public function verifyLastRun(): void
    {
        $ok = $this->operation === JwtCase::SIGN ? $this->last !== '' && $this->verifies($this->last) : $this->allValid;
        if (!$ok) {
            throw VerificationFailed::operationFailed($this->label(), $this->operation === JwtCase::SIGN ? 'expected the last signature to verify, it did not' : 'expected every verification of the token\'s signature to succeed, one failed');
        }
    }

    private function sign(): string
    {
        $algorithm = $this->scheme->algorithm;
        $signature = '';
        $ok = match (true) {
            $algorithm instanceof Hmac => ($signature = hash_hmac($algorithm->hash(), $this->input, (string) $this->private, true)) !== '',
            $algorithm instanceof Rsa, $algorithm instanceof Ecdsa => $this->private instanceof OpenSSLAsymmetricKey && openssl_sign($this->input, $signature, $this->private, $algorithm->digest()),
            default => ($signature = sodium_crypto_sign_detached($this->input, (string) $this->private)) !== '',
        };
        return $ok ? $signature : '';
    }

    private function verifies(string $signature): bool
    {
        $algorithm = $this->scheme->algorithm;
        return match (true) {
            $algorithm instanceof Hmac => hash_equals(hash_hmac($algorithm->hash(), $this->input, (string) $this->private, true), $signature),
            $algorithm instanceof Rsa, $algorithm instanceof Ecdsa => $this->public instanceof OpenSSLAsymmetricKey && openssl_verify($this->input, $signature, $this->public, $algorithm->digest()) === 1,
            default => sodium_crypto_sign_verify_detached($signature, $this->input, (string) $this->public),
        };
    }

    /** Deterministic algorithms (HS, RS, EdDSA) must give the JWS layer's very bytes; ES and PS a signature that verifies. */
    private function checkAgainstTheJwsLayer(): void
    {
        $algorithm = $this->scheme->algorithm;
        $deterministic = $algorithm instanceof Hmac || ($algorithm instanceof Rsa && !$algorithm->isPss()) || $this->scheme->keyType === 'OKP Ed25519';
        $mine = $this->sign();
        $agrees = $deterministic ? hash_equals($this->signature, $mine) : $this->verifies($mine);
        if (!$agrees || !$this->verifies($this->signature)) {
            throw VerificationFailed::knownAnswerMismatch($this->label(), 'the JWS layer\'s signature, or one that verifies like it', 'a signature that differs');
        }
    }
}
