<?php

declare(strict_types=1);

namespace PhpCryptoBench\Aead;

use PhpCryptoBench\Exception\VerificationFailed;

/** Authenticates and decrypts one sealed message again and again. */
final class DecryptCase extends AeadCase
{
    private readonly string $nonce;
    private readonly Sealed $sealed;
    private ?string $lastOpened = null;

    public function __construct(AeadAlgorithm $aead, int $payloadBytes, int $aadBytes)
    {
        parent::__construct($aead, $payloadBytes, $aadBytes);
        $this->nonce = random_bytes($aead->nonceBytes());
        $this->sealed = $aead->encrypt($this->plaintext, $this->key, $this->nonce, $this->aad);
    }

    protected function operation(): string
    {
        return 'decrypt';
    }

    public function run(int $iterations): void
    {
        $aead = $this->aead;
        if ($aead instanceof BulkAead) {
            $opened = $aead->decryptMany($this->sealed, $this->key, $this->nonce, $this->aad, $iterations);
            if ($opened === null) {
                throw VerificationFailed::operationFailed($this->label(), 'authentication failed on an untouched message');
            }
            $this->lastOpened = $opened;
            return;
        }
        $opened = null;
        for ($i = 0; $i < $iterations; $i++) {
            $opened = $aead->decrypt($this->sealed, $this->key, $this->nonce, $this->aad);
            if ($opened === null) {
                throw VerificationFailed::operationFailed($this->label(), 'authentication failed on an untouched message');
            }
        }
        $this->lastOpened = $opened;
    }

    public function verifyLastRun(): void
    {
        if ($this->lastOpened !== $this->plaintext) {
            throw VerificationFailed::roundTripMismatch($this->label(), strlen($this->plaintext), strlen((string) $this->lastOpened));
        }
    }
}
