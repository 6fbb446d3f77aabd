<?php

declare(strict_types=1);

namespace PhpCryptoBench\Aead;

use PhpCryptoBench\Exception\VerificationFailed;

/** Encrypts one payload again and again, each time under a fresh nonce. */
final class EncryptCase extends AeadCase
{
    private readonly string $noncePrefix;
    private int $counter = 0;
    private ?Sealed $lastSealed = null;
    private string $lastNonce = '';

    public function __construct(AeadAlgorithm $aead, int $payloadBytes, int $aadBytes)
    {
        parent::__construct($aead, $payloadBytes, $aadBytes);
        // SP 800-38D 8.2.1 style: a random fixed field and a 64-bit counter, so no nonce repeats under this key.
        $this->noncePrefix = random_bytes($aead->nonceBytes() - 8);
    }

    protected function operation(): string
    {
        return 'encrypt';
    }

    public function run(int $iterations): void
    {
        $aead = $this->aead;
        if ($aead instanceof BulkAead) {
            $this->lastSealed = $aead->encryptMany($this->plaintext, $this->key, $this->noncePrefix, $this->counter + 1, $iterations, $this->aad);
            $this->counter += max($iterations, 1);
            $this->lastNonce = $this->noncePrefix . pack('J', $this->counter);
            return;
        }
        for ($i = 0; $i < $iterations; $i++) {
            $nonce = $this->noncePrefix . pack('J', ++$this->counter);
            $this->lastSealed = $aead->encrypt($this->plaintext, $this->key, $nonce, $this->aad);
        }
        $this->lastNonce = $nonce ?? '';
    }

    public function verifyLastRun(): void
    {
        $opened = $this->lastSealed === null ? null
            : $this->aead->decrypt($this->lastSealed, $this->key, $this->lastNonce, $this->aad);
        if ($opened !== $this->plaintext) {
            throw VerificationFailed::roundTripMismatch($this->label(), strlen($this->plaintext), strlen((string) $opened));
        }
    }
}
