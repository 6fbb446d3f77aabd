<?php

declare(strict_types=1);

namespace PhpCryptoBench\Aead;

use PhpCryptoBench\Exception\VerificationFailed;
use PhpCryptoBench\Harness\BenchCase;

/**
 * A payload through secretstream in 64 KiB chunks, as runners/snippets/secretstream-large-payload.php
 * does with a file: each run encrypts it under a fresh header (a new stream), or opens one stream
 * again. The chunks of the last run are kept, as a list, for the verification.
 */
final class SecretstreamCase implements BenchCase
{
    private readonly string $key;
    private readonly string $plaintext;
    private string $header = '';
    /** @var list<string> */
    private array $chunks = [];
    /** @var list<string>|null */
    private ?array $opened = null;

    /** @param 'encrypt'|'decrypt' $operation */
    public function __construct(private readonly string $operation, int $payloadBytes)
    {
        $this->key = sodium_crypto_secretstream_xchacha20poly1305_keygen();
        $this->plaintext = random_bytes($payloadBytes);
        if ($operation === 'decrypt') {
            [$this->header, $this->chunks] = Secretstream::encrypt($this->plaintext, $this->key);
        }
    }

    public function key(): array
    {
        return ['algorithm' => Secretstream::NAME, 'operation' => $this->operation, 'payload_bytes' => strlen($this->plaintext), 'chunk_bytes' => Secretstream::CHUNK_BYTES];
    }

    public function label(): string
    {
        return sprintf('%s %s %d B in %d KiB chunks', Secretstream::NAME, $this->operation, strlen($this->plaintext), Secretstream::CHUNK_BYTES / 1024);
    }

    public function bytesPerIteration(): int
    {
        return strlen($this->plaintext);
    }

    public function run(int $iterations): void
    {
        for ($i = 0; $i < max($iterations, 1); $i++) {
            if ($this->operation === 'encrypt') {
                [$this->header, $this->chunks] = Secretstream::encrypt($this->plaintext, $this->key);
            } else {
                $this->opened = Secretstream::decrypt($this->header, $this->chunks, $this->key);
                if ($this->opened === null) {
                    throw VerificationFailed::operationFailed($this->label(), 'authentication failed on an untouched stream');
                }
            }
        }
    }

    public function verifyLastRun(): void
    {
        $opened = $this->operation === 'encrypt' ? Secretstream::decrypt($this->header, $this->chunks, $this->key) : $this->opened;
        $text = $opened === null ? '' : implode('', $opened);
        if ($text !== $this->plaintext) {
            throw VerificationFailed::roundTripMismatch($this->label(), strlen($this->plaintext), strlen($text));
        }
    }
}
