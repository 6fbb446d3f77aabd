<?php

declare(strict_types=1);

namespace PhpCryptoBench\Symmetric;

use PhpCryptoBench\Exception\VerificationFailed;
use PhpCryptoBench\Harness\BenchCase;

/**
 * Encrypts (a random IV per message), decrypts, or does both and compares (a round trip), one
 * payload with one cipher; the output of every timed run is checked.
 */
final class SymmetricCase implements BenchCase
{
    public const ENCRYPT = 'encrypt';
    public const DECRYPT = 'decrypt';
    public const ROUNDTRIP = 'roundtrip';

    private readonly string $key;
    private readonly string $plaintext;
    private readonly string $fixedIv;
    private readonly string $fixedCiphertext;
    private string $lastCiphertext = '';
    private string $lastIv = '';
    private ?string $lastPlaintext = null;

    public function __construct(
        private readonly string $suite,
        private readonly SymmetricCipher $cipher,
        private readonly string $operation,
        int $payloadBytes,
    ) {
        $this->key = random_bytes(intdiv($cipher->keyBits(), 8));
        $this->plaintext = random_bytes($payloadBytes);
        $this->fixedIv = $this->freshIv();
        $this->fixedCiphertext = $operation === self::DECRYPT ? $cipher->encrypt($this->plaintext, $this->key, $this->fixedIv) : '';
    }

    private function freshIv(): string
    {
        // CBC needs an unpredictable IV per message (CWE-329): random, never derived from a password.
        return $this->cipher->ivBytes() > 0 ? random_bytes($this->cipher->ivBytes()) : '';
    }

    public function key(): array
    {
        return [
            'suite' => $this->suite,
            'engine' => $this->cipher->engine(),
            'provider' => $this->cipher->provider(),
            'cipher' => $this->cipher->cipher(),
            'mode' => $this->cipher->mode(),
            'key_bits' => $this->cipher->keyBits(),
            'padding' => $this->cipher->padding(),
            'operation' => $this->operation,
            'payload_bytes' => strlen($this->plaintext),
        ];
    }

    public function label(): string
    {
        $name = $this->cipher->engine() === 'mcrypt' ? $this->cipher->cipher() . '-' . $this->cipher->mode() : $this->cipher->cipher();
        return sprintf('%s %s/%d %s %d B', $this->cipher->engine(), $name, $this->cipher->keyBits(), $this->operation, strlen($this->plaintext));
    }

    public function bytesPerIteration(): int
    {
        return strlen($this->plaintext);
    }

    public function run(int $iterations): void
    {
        $cipher = $this->cipher;
        for ($i = 0; $i < $iterations; $i++) {
            if ($this->operation === self::DECRYPT) {
                $this->lastPlaintext = $cipher->decrypt($this->fixedCiphertext, $this->key, $this->fixedIv);
                continue;
            }
            $this->lastIv = $this->freshIv();
            $this->lastCiphertext = $cipher->encrypt($this->plaintext, $this->key, $this->lastIv);
            if ($this->operation === self::ROUNDTRIP) {
                $this->lastPlaintext = $cipher->decrypt($this->lastCiphertext, $this->key, $this->lastIv);
                if ($this->lastPlaintext !== $this->plaintext) {
                    throw VerificationFailed::roundTripMismatch($this->label(), strlen($this->plaintext), strlen($this->lastPlaintext));
                }
            }
        }
    }

    public function verifyLastRun(): void
    {
        $opened = match ($this->operation) {
            self::ENCRYPT => $this->lastCiphertext === '' && $this->plaintext !== '' ? null : $this->cipher->decrypt($this->lastCiphertext, $this->key, $this->lastIv),
            default => $this->lastPlaintext,
        };
        if ($opened !== $this->plaintext) {
            throw VerificationFailed::roundTripMismatch($this->label(), strlen($this->plaintext), strlen((string) $opened));
        }
    }
}
