<?php

declare(strict_types=1);

namespace PhpCryptoBench\Argon2;

use PhpCryptoBench\Exception\InvalidArgon2Parameter;

/**
 * One point of the Argon2 grid: an interface (PHP's password_hash, sodium_crypto_pwhash, or the
 * reference `argon2` CLI), a variant, and memory (KiB), threads and time cost. Memory is always
 * KiB here; sodium takes bytes, the CLI KiB (-k), password_hash KiB.
 */
final class Argon2Cell
{
    public const INTERFACES = ['password_hash' => ['argon2i', 'argon2id'], 'sodium' => ['argon2i', 'argon2id'], 'cli' => ['argon2i', 'argon2id', 'argon2d']];
    private const MAX_MEMORY_KIB = 4_294_967_295; // 2^32 - 1 (RFC 9106 section 3.1)
    private const MAX_THREADS = 16_777_215;       // 2^24 - 1
    /** libsodium's crypto_pwhash_argon2i_OPSLIMIT_MIN. */
    private const SODIUM_ARGON2I_MIN_TIME = 3;

    private function __construct(
        public readonly string $interface,
        public readonly string $variant,
        public readonly int $memoryKib,
        public readonly int $threads,
        public readonly int $timeCost,
    ) {
    }

    /** @throws InvalidArgon2Parameter */
    public static function of(string $interface, string $variant, int $memoryKib, int $threads, int $timeCost): self
    {
        $variants = self::INTERFACES[$interface] ?? throw InvalidArgon2Parameter::unknown('interface', implode(', ', array_keys(self::INTERFACES)), $interface);
        if (!in_array($variant, $variants, true)) {
            throw InvalidArgon2Parameter::unknown('variant', implode(', ', $variants) . " for $interface", $variant);
        }
        if ($threads < 1 || $threads > self::MAX_THREADS) {
            throw InvalidArgon2Parameter::outOfRange('threads', '1 to 2^24 - 1', $threads);
        }
        if ($memoryKib < 8 * $threads || $memoryKib > self::MAX_MEMORY_KIB) {
            throw InvalidArgon2Parameter::outOfRange('memory_kib', sprintf('at least 8 KiB per thread (%d) and under 4 TiB', 8 * $threads), $memoryKib);
        }
        if ($timeCost < 1) {
            throw InvalidArgon2Parameter::outOfRange('time_cost', 'at least 1', $timeCost);
        }
        return new self($interface, $variant, $memoryKib, $threads, $timeCost);
    }

    /**
     * Why the interface refuses this valid cell, when it does: a result to record, not an error.
     *
     * @param string|null $provider PASSWORD_ARGON2_PROVIDER, or null when PHP has no Argon2
     */
    public function refusal(?string $provider): ?string
    {
        if ($this->interface === 'sodium' && $this->threads > 1) {
            return 'sodium_crypto_pwhash has no parallelism parameter: libsodium always uses 1 thread';
        }
        if ($this->interface === 'sodium' && $this->variant === 'argon2i' && $this->timeCost < self::SODIUM_ARGON2I_MIN_TIME) {
            return sprintf('libsodium refuses Argon2i with fewer than %d passes (crypto_pwhash_argon2i_OPSLIMIT_MIN)', self::SODIUM_ARGON2I_MIN_TIME);
        }
        if ($this->interface === 'password_hash' && $provider === null) {
            return 'this PHP was built without Argon2 (PASSWORD_ARGON2_PROVIDER undefined)';
        }
        if ($this->interface === 'password_hash' && $provider === 'sodium' && $this->threads > 1) {
            return 'PHP\'s Argon2 comes from libsodium here (PASSWORD_ARGON2_PROVIDER = sodium), which refuses threads > 1';
        }
        return null;
    }

    /** @return array{interface: string, variant: string, memory_kib: int, threads: int, time_cost: int} */
    public function key(): array
    {
        return ['interface' => $this->interface, 'variant' => $this->variant, 'memory_kib' => $this->memoryKib, 'threads' => $this->threads, 'time_cost' => $this->timeCost];
    }

    public static function provider(): ?string
    {
        return defined('PASSWORD_ARGON2_PROVIDER') ? (string) PASSWORD_ARGON2_PROVIDER : null;
    }
}
