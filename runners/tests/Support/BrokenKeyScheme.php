<?php

declare(strict_types=1);

namespace PhpCryptoBench\Tests\Support;

use PhpCryptoBench\EcKeygen\KeyScheme;

/** A signature scheme whose keys stop verifying their own signatures from the Nth key on, or that accepts anything. */
final class BrokenKeyScheme implements KeyScheme
{
    private int $generated = 0;

    public function __construct(
        private readonly int $brokenFromKey = 1,
        private readonly bool $acceptsEverything = false,
    ) {
    }

    public function name(): string
    {
        return 'broken';
    }

    public function describe(): array
    {
        return ['interface' => 'openssl', 'curve' => 'broken', 'family' => 'secp', 'organization' => 'test', 'field_bits' => 256, 'key_bits' => 256, 'security_bits' => 128];
    }

    public function operations(): array
    {
        return [self::KEYGEN, self::SIGN, self::VERIFY];
    }

    public function generate(): string
    {
        $this->generated++;
        return $this->generated >= $this->brokenFromKey ? 'a bad key' : 'a good key';
    }

    public function publicKey(mixed $key): string
    {
        return (string) $key;
    }

    public function sign(mixed $key, string $message): string
    {
        return hash('sha256', $key . $message);
    }

    public function verify(mixed $publicKey, string $message, string $signature): bool
    {
        return $this->acceptsEverything || ($publicKey === 'a good key' && hash_equals(hash('sha256', $publicKey . $message), $signature));
    }

    public function derive(mixed $key, mixed $peerPublicKey): string
    {
        return '';
    }
}
