<?php

declare(strict_types=1);

namespace PhpCryptoBench\Aead;

use PhpCryptoBench\Harness\BenchCase;

/** What encryption and decryption cases share: an algorithm, a random key, payload and AAD. */
abstract class AeadCase implements BenchCase
{
    protected readonly string $key;
    protected readonly string $plaintext;
    protected readonly string $aad;

    public function __construct(protected readonly AeadAlgorithm $aead, int $payloadBytes, int $aadBytes)
    {
        $this->key = random_bytes($aead->keyBytes());
        $this->plaintext = $payloadBytes > 0 ? random_bytes($payloadBytes) : '';
        $this->aad = $aadBytes > 0 ? random_bytes($aadBytes) : '';
    }

    /** encrypt|decrypt */
    abstract protected function operation(): string;

    /** @return array{library: string, algorithm: string, operation: string, payload_bytes: int, aad_bytes: int, tag_bytes: int, nonce_bytes: int} */
    final public function key(): array
    {
        return [
            'library' => $this->aead->library(),
            'algorithm' => $this->aead->name(),
            'operation' => $this->operation(),
            'payload_bytes' => strlen($this->plaintext),
            'aad_bytes' => strlen($this->aad),
            'tag_bytes' => $this->aead->tagBytes(),
            'nonce_bytes' => $this->aead->nonceBytes(),
        ];
    }

    final public function label(): string
    {
        return sprintf(
            '%s/%dB-tag %s %d B (aad %d B)',
            $this->aead->name(),
            $this->aead->tagBytes(),
            $this->operation(),
            strlen($this->plaintext),
            strlen($this->aad),
        );
    }

    final public function bytesPerIteration(): int
    {
        return strlen($this->plaintext);
    }
}
