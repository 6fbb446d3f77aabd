<?php

declare(strict_types=1);

namespace PhpCryptoBench\Aead;

use PhpCryptoBench\Exception\VerificationFailed;
use PhpCryptoBench\Harness\BenchCase;

/** Authenticates and decrypts one sealed message again and again. */
final class DecryptCase implements BenchCase
{
    private readonly string $key;
    private readonly string $plaintext;
    private readonly string $aad;
    private readonly string $nonce;
    private readonly Sealed $sealed;
    private ?string $lastOpened = null;

    public function __construct(private readonly AeadAlgorithm $aead, int $payloadBytes, int $aadBytes)
    {
        $this->key = random_bytes($aead->keyBytes());
        $this->plaintext = $payloadBytes > 0 ? random_bytes($payloadBytes) : '';
        $this->aad = $aadBytes > 0 ? random_bytes($aadBytes) : '';
        $this->nonce = random_bytes($aead->nonceBytes());
        $this->sealed = $aead->encrypt($this->plaintext, $this->key, $this->nonce, $this->aad);
    }

    public function key(): array
    {
        return AeadCaseKey::of($this->aead, 'decrypt', strlen($this->plaintext), strlen($this->aad));
    }

    public function label(): string
    {
        return AeadCaseKey::label($this->key());
    }

    public function bytesPerIteration(): int
    {
        return strlen($this->plaintext);
    }

    public function run(int $iterations): void
    {
        $aead = $this->aead;
        for ($i = 0; $i < $iterations; $i++) {
            $opened = $aead->decrypt($this->sealed, $this->key, $this->nonce, $this->aad);
            if ($opened === null) {
                throw VerificationFailed::operationFailed($this->label(), 'authentication failed on an untouched message');
            }
        }
        $this->lastOpened = $opened ?? null;
    }

    public function verifyLastRun(): void
    {
        if ($this->lastOpened !== $this->plaintext) {
            throw VerificationFailed::roundTripMismatch($this->label(), strlen($this->plaintext), strlen((string) $this->lastOpened));
        }
    }
}
