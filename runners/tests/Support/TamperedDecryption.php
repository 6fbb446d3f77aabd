<?php

declare(strict_types=1);

namespace PhpCryptoBench\Tests\Support;

use Closure;
use PhpCryptoBench\Aead\AeadAlgorithm;
use PhpCryptoBench\Aead\Sealed;

/** An AEAD whose decryption result passes through a broken step: the bugs the checks must catch. */
final class TamperedDecryption implements AeadAlgorithm
{
    /** @param Closure(?string): ?string $tamper */
    private function __construct(private readonly AeadAlgorithm $inner, private readonly string $prefix, private readonly Closure $tamper)
    {
    }

    /** The classic bug: a failed authentication becomes an empty plaintext. */
    public static function ignoringAuthenticationFailure(AeadAlgorithm $inner): self
    {
        return new self($inner, 'forgiving-', static fn (?string $plaintext): string => $plaintext ?? '');
    }

    /** A decryption that hands back a plaintext with one bit changed. */
    public static function corruptingPlaintext(AeadAlgorithm $inner): self
    {
        return new self($inner, 'corrupting-', static fn (?string $plaintext): ?string => $plaintext === null || $plaintext === ''
            ? $plaintext
            : ($plaintext[0] ^ "\x01") . substr($plaintext, 1));
    }

    public function name(): string
    {
        return $this->prefix . $this->inner->name();
    }

    public function library(): string
    {
        return $this->inner->library();
    }

    public function keyBytes(): int
    {
        return $this->inner->keyBytes();
    }

    public function nonceBytes(): int
    {
        return $this->inner->nonceBytes();
    }

    public function tagBytes(): int
    {
        return $this->inner->tagBytes();
    }

    public function encrypt(string $plaintext, string $key, string $nonce, string $aad): Sealed
    {
        return $this->inner->encrypt($plaintext, $key, $nonce, $aad);
    }

    public function decrypt(Sealed $sealed, string $key, string $nonce, string $aad): ?string
    {
        return ($this->tamper)($this->inner->decrypt($sealed, $key, $nonce, $aad));
    }
}
