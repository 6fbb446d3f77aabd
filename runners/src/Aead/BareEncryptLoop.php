<?php

declare(strict_types=1);

namespace PhpCryptoBench\Aead;

use PhpCryptoBench\Environment\PhpFeatures;
use PhpCryptoBench\Exception\VerificationFailed;
use PhpCryptoBench\Harness\BenchCase;

/**
 * The least a PHP program can do to encrypt with an AEAD: openssl_encrypt in a for loop, a fresh
 * nonce per message, nothing else (no AeadAlgorithm object, no length checks, no Sealed result).
 * Timed beside the harness's EncryptCase, it shows what the harness and the case add.
 */
final class BareEncryptLoop implements BenchCase
{
    private readonly string $key;
    private readonly string $plaintext;
    private readonly string $noncePrefix;
    private int $counter = 0;
    private string $lastCiphertext = '';
    private string $lastTag = '';
    private string $lastNonce = '';

    public function __construct(private readonly string $cipher, int $payloadBytes)
    {
        $this->key = random_bytes((int) PhpFeatures::cipherKeyLength($cipher));
        $this->plaintext = random_bytes($payloadBytes);
        $this->noncePrefix = random_bytes(4);
    }

    public function key(): array
    {
        return ['algorithm' => $this->cipher, 'payload_bytes' => strlen($this->plaintext), 'loop' => 'bare'];
    }

    public function label(): string
    {
        return sprintf('%s encrypt %d B, bare openssl_encrypt loop', $this->cipher, strlen($this->plaintext));
    }

    public function bytesPerIteration(): int
    {
        return strlen($this->plaintext);
    }

    public function run(int $iterations): void
    {
        $cipher = $this->cipher;
        $key = $this->key;
        $plaintext = $this->plaintext;
        $prefix = $this->noncePrefix;
        $counter = $this->counter;
        $ciphertext = '';
        $tag = '';
        for ($i = 0; $i < $iterations; $i++) {
            $ciphertext = openssl_encrypt($plaintext, $cipher, $key, OPENSSL_RAW_DATA, $prefix . pack('J', ++$counter), $tag);
        }
        $this->counter = $counter;
        $this->lastCiphertext = (string) $ciphertext;
        $this->lastTag = (string) $tag;
        $this->lastNonce = $prefix . pack('J', $counter);
    }

    public function verifyLastRun(): void
    {
        $opened = openssl_decrypt($this->lastCiphertext, $this->cipher, $this->key, OPENSSL_RAW_DATA, $this->lastNonce, $this->lastTag);
        if ($opened !== $this->plaintext) {
            throw VerificationFailed::roundTripMismatch($this->label(), strlen($this->plaintext), strlen((string) $opened));
        }
    }
}
