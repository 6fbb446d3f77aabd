<?php

declare(strict_types=1);

namespace PhpCryptoBench\Aead;

use PhpCryptoBench\Harness\BenchCase;

/**
 * XChaCha20-Poly1305 on the whole payload in one libsodium call, as the aead table times it
 * (EncryptCase or DecryptCase), keyed like a SecretstreamCase so that the two form one group.
 */
final class OneCallCase implements BenchCase
{
    public const ALGORITHM = 'xchacha20poly1305-ietf';

    private function __construct(private readonly AeadCase $case)
    {
    }

    /** @param 'encrypt'|'decrypt' $operation */
    public static function of(string $operation, int $payloadBytes): self
    {
        $aead = new SodiumAead(self::ALGORITHM);
        return new self($operation === 'encrypt' ? new EncryptCase($aead, $payloadBytes, 0) : new DecryptCase($aead, $payloadBytes, 0));
    }

    public function key(): array
    {
        $key = $this->case->key();
        // One call: the whole payload is its one chunk.
        return ['algorithm' => $key['algorithm'], 'operation' => $key['operation'], 'payload_bytes' => $key['payload_bytes'], 'chunk_bytes' => $key['payload_bytes']];
    }

    public function label(): string
    {
        return $this->case->label() . ', in one call';
    }

    public function bytesPerIteration(): int
    {
        return $this->case->bytesPerIteration();
    }

    public function run(int $iterations): void
    {
        $this->case->run($iterations);
    }

    public function verifyLastRun(): void
    {
        $this->case->verifyLastRun();
    }
}
