<?php

declare(strict_types=1);

namespace PhpCryptoBench\Aead;

/**
 * A ciphertext with its tag. OpenSSL hands them out apart and libsodium joined;
 * this keeps whichever form it was given so a decrypt by the same library copies nothing.
 */
final class Sealed
{
    private function __construct(
        private readonly ?string $ciphertext,
        private readonly ?string $tag,
        private readonly ?string $combined,
        private readonly int $tagBytes,
    ) {
    }

    public static function separate(string $ciphertext, string $tag): self
    {
        return new self($ciphertext, $tag, null, strlen($tag));
    }

    public static function combined(string $ciphertextAndTag, int $tagBytes): self
    {
        return new self(null, null, $ciphertextAndTag, $tagBytes);
    }

    public function ciphertext(): string
    {
        return $this->ciphertext ?? substr((string) $this->combined, 0, -$this->tagBytes);
    }

    public function tag(): string
    {
        return $this->tag ?? substr((string) $this->combined, -$this->tagBytes);
    }

    public function joined(): string
    {
        return $this->combined ?? $this->ciphertext . $this->tag;
    }
}
