<?php

declare(strict_types=1);

namespace PhpCryptoBench\Pq;

use PhpCryptoBench\Exception\VerificationFailed;
use PhpCryptoBench\Harness\BenchCase;
use PhpCryptoBench\Harness\RandomTime;
use PhpCryptoBench\Jwt\JwtCase;

/**
 * openssl_sign() or openssl_verify() of one scheme on a token's signing input (header.payload, the
 * JWT experiment's claims of one payload length), with key objects loaded once: what signing or
 * verifying costs PHP, whatever the JWS code around it. Every signature made is checked to verify;
 * every verification must succeed. ML-DSA's signing takes a random time by design (RandomTime): each of
 * its samples is Sampler::RANDOM_TIME_OPERATIONS signatures, never a calibrated count.
 */
final class SignCase implements BenchCase, RandomTime
{
    public const SIGN = 'sign';
    public const VERIFY = 'verify';

    private readonly string $input;
    private readonly string $signature;
    private string $last = '';
    private bool $allValid = true;

    public function __construct(
        private readonly KeyPair $keys,
        private readonly string $operation,
        private readonly int $payloadChars,
        int $now,
    ) {
        $scheme = $keys->scheme;
        $this->input = CompactToken::signingInput($scheme, JwtCase::claims($payloadChars, $now));
        $this->signature = CompactToken::signature($scheme, $keys->private, $this->input);
        if (!$this->verifies($this->signature)) {
            throw VerificationFailed::operationFailed($this->label(), 'the signature made before timing does not verify');
        }
    }

    public function key(): array
    {
        return ['algorithm' => $this->keys->scheme->name, 'operation' => $this->operation, 'payload_chars' => $this->payloadChars];
    }

    public function label(): string
    {
        return sprintf('%s %s %d chars', $this->keys->scheme->name, $this->operation, $this->payloadChars);
    }

    public function takesRandomTime(): bool
    {
        return $this->operation === self::SIGN && $this->keys->scheme->isPostQuantum();
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
        $private = $this->keys->private;
        $digest = $this->keys->scheme->digest;
        if ($this->operation === self::SIGN) {
            for ($i = 0; $i < $iterations; $i++) {
                $signature = '';
                $this->last = openssl_sign($this->input, $signature, $private, $digest) ? $signature : '';
            }
            return;
        }
        $public = $this->keys->public;
        $all = true;
        for ($i = 0; $i < $iterations; $i++) {
            $all = openssl_verify($this->input, $this->signature, $public, $digest) === 1 && $all;
        }
        $this->allValid = $all;
    }

    public function verifyLastRun(): void
    {
        $ok = $this->operation === self::SIGN ? $this->last !== '' && $this->verifies($this->last) : $this->allValid;
        if (!$ok) {
            throw VerificationFailed::operationFailed($this->label(), $this->operation === self::SIGN ? 'expected the last signature to verify, it did not' : 'expected every verification to succeed, one failed');
        }
    }

    private function verifies(string $signature): bool
    {
        return openssl_verify($this->input, $signature, $this->keys->public, $this->keys->scheme->digest) === 1;
    }
}
