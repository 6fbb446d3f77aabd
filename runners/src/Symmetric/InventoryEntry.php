<?php

declare(strict_types=1);

namespace PhpCryptoBench\Symmetric;

/**
 * One cipher name from openssl_get_cipher_methods(), and what it does today: facts only. Whether
 * it is safe to use is the build's call, from data/policy/symmetric.yaml.
 */
final class InventoryEntry
{
    public const OK = 'ok';
    public const ROUNDTRIP_FAILED = 'roundtrip_failed';
    public const UNSUPPORTED = 'unsupported';
    public const NEEDS_SPECIAL_INPUT = 'needs_special_input';
    public const AEAD_NEEDS_TAG = 'aead_needs_tag';

    public function __construct(
        public readonly string $cipher,
        public readonly string $provider,
        public readonly string $status,
        public readonly string $detail,
    ) {
    }

    /** Whether the cipher round-trips through openssl_encrypt/decrypt and so gets timed. */
    public function measurable(): bool
    {
        return in_array($this->status, [self::OK, self::NEEDS_SPECIAL_INPUT], true);
    }

    /** @return array{cipher: string, provider: string, status: string, detail: string} */
    public function toRow(): array
    {
        return [
            'cipher' => $this->cipher,
            'provider' => $this->provider,
            'status' => $this->status,
            'detail' => $this->detail,
        ];
    }
}
