<?php

declare(strict_types=1);

namespace PhpCryptoBench\Aead;

/** The key columns of aead.csv, in order. */
final class AeadCaseKey
{
    /** @return array{library: string, algorithm: string, operation: string, payload_bytes: int, aad_bytes: int, tag_bytes: int, nonce_bytes: int} */
    public static function of(AeadAlgorithm $aead, string $operation, int $payloadBytes, int $aadBytes): array
    {
        return [
            'library' => $aead->library(),
            'algorithm' => $aead->name(),
            'operation' => $operation,
            'payload_bytes' => $payloadBytes,
            'aad_bytes' => $aadBytes,
            'tag_bytes' => $aead->tagBytes(),
            'nonce_bytes' => $aead->nonceBytes(),
        ];
    }

    /** @param array<string, int|string> $key */
    public static function label(array $key): string
    {
        return sprintf(
            '%s/%dB-tag %s %d B (aad %d B)',
            $key['algorithm'],
            $key['tag_bytes'],
            $key['operation'],
            $key['payload_bytes'],
            $key['aad_bytes'],
        );
    }
}
