<?php

declare(strict_types=1);

namespace PhpCryptoBench\Aead;

use PhpCryptoBench\Exception\InvalidAeadParameter;

/**
 * What a timed run of an AEAD does, as close to a bare loop of the library call as PHP allows: the
 * key and nonce lengths checked once, not per message, and no object per message but the last.
 * The harness's overhead over a bare openssl_encrypt loop (HarnessOverhead) stays a few per cent.
 */
interface BulkAead extends AeadAlgorithm
{
    /**
     * Encrypts $plaintext $count times (at least once), message i under the nonce
     * $noncePrefix . pack('J', $firstCounter + i): no nonce repeats.
     *
     * @return Sealed the last message
     * @throws InvalidAeadParameter for a key or nonce of the wrong length, or when the library refuses
     */
    public function encryptMany(string $plaintext, string $key, string $noncePrefix, int $firstCounter, int $count, string $aad): Sealed;

    /**
     * Opens one message $count times (at least once).
     *
     * @return string|null the plaintext, or null when any opening failed (see decrypt())
     * @throws InvalidAeadParameter for a key or nonce of the wrong length
     */
    public function decryptMany(Sealed $sealed, string $key, string $nonce, string $aad, int $count): ?string;
}
