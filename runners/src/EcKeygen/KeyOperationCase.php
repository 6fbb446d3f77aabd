<?php

declare(strict_types=1);

namespace PhpCryptoBench\EcKeygen;

use PhpCryptoBench\Exception\VerificationFailed;
use PhpCryptoBench\Harness\BenchCase;

/**
 * Times one operation of one scheme. Key generation keeps every key of a run and checks each one
 * afterwards (outside the timing); sign, verify and derive check their results against a key pair
 * made once, before timing.
 */
final class KeyOperationCase implements BenchCase
{
    private const MESSAGE_BYTES = 64;

    private readonly string $message;
    private readonly mixed $key;
    private readonly mixed $publicKey;
    private readonly string $signature;
    private readonly mixed $peerPublicKey;
    private readonly string $expectedSecret;
    /** @var list<mixed> */
    private array $generated = [];
    private string $lastSignature = '';
    private string $lastSecret = '';
    private bool $allVerified = true;

    /** @param mixed $key a key of this scheme to sign, verify or derive with (RSA keys are slow to make); null: a fresh one */
    public function __construct(
        private readonly KeyScheme $scheme,
        private readonly string $operation,
        mixed $key = null,
    ) {
        if (!in_array($operation, $scheme->operations(), true)) {
            throw VerificationFailed::operationFailed($scheme->name() . ' ' . $operation, 'the scheme does not offer it');
        }
        $this->message = random_bytes(self::MESSAGE_BYTES);
        $this->key = $key ?? $scheme->generate();
        $this->publicKey = $scheme->publicKey($this->key);
        $signs = in_array(KeyScheme::SIGN, $scheme->operations(), true);
        $this->signature = $signs ? $scheme->sign($this->key, $this->message) : '';
        $peer = $operation === KeyScheme::DERIVE ? $scheme->generate() : null;
        $this->peerPublicKey = $peer === null ? null : $scheme->publicKey($peer);
        $this->expectedSecret = $peer === null ? '' : $scheme->derive($peer, $this->publicKey);
        if ($operation === KeyScheme::VERIFY && $scheme->verify($this->publicKey, $this->message . '!', $this->signature)) {
            throw VerificationFailed::tamperAccepted($scheme->name(), 'a signature over another message');
        }
    }

    public function key(): array
    {
        return $this->scheme->describe() + ['operation' => $this->operation];
    }

    public function label(): string
    {
        return $this->scheme->name() . ' ' . $this->operation;
    }

    /** No payload: the key's size in bytes stands in for the work (the fake clock's cost model). */
    public function bytesPerIteration(): int
    {
        return intdiv($this->scheme->describe()['field_bits'] + 7, 8);
    }

    public function run(int $iterations): void
    {
        $scheme = $this->scheme;
        switch ($this->operation) {
            case KeyScheme::KEYGEN:
                $this->generated = [];
                for ($i = 0; $i < $iterations; $i++) {
                    $this->generated[] = $scheme->generate();
                }
                return;
            case KeyScheme::SIGN:
                for ($i = 0; $i < $iterations; $i++) {
                    $this->lastSignature = $scheme->sign($this->key, $this->message);
                }
                return;
            case KeyScheme::VERIFY:
                $all = true;
                for ($i = 0; $i < $iterations; $i++) {
                    $all = $scheme->verify($this->publicKey, $this->message, $this->signature) && $all;
                }
                $this->allVerified = $all;
                return;
            default:
                for ($i = 0; $i < $iterations; $i++) {
                    $this->lastSecret = $scheme->derive($this->key, $this->peerPublicKey);
                }
        }
    }

    public function verifyLastRun(): void
    {
        $problem = match ($this->operation) {
            KeyScheme::KEYGEN => $this->firstBadKey(),
            KeyScheme::SIGN => $this->scheme->verify($this->publicKey, $this->message, $this->lastSignature) ? null : 'expected the last signature to verify, it did not',
            KeyScheme::VERIFY => $this->allVerified ? null : 'expected every verification of a valid signature to succeed, one failed',
            default => $this->lastSecret === $this->expectedSecret ? null : 'expected the secret the peer derived, got a different one',
        };
        if ($problem !== null) {
            throw VerificationFailed::operationFailed($this->label(), $problem);
        }
        // Checked: let them go now, not at the start of the next run, where freeing them would be timed.
        $this->generated = [];
    }

    private function firstBadKey(): ?string
    {
        if ($this->generated === []) {
            return 'expected generated keys, got none';
        }
        foreach ($this->generated as $index => $key) {
            $mismatch = KeyCheck::mismatch($this->scheme, $key);
            if ($mismatch !== null) {
                return sprintf('key %d of %d: %s', $index + 1, count($this->generated), $mismatch);
            }
        }
        return null;
    }
}
