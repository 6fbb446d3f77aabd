<?php

declare(strict_types=1);

namespace PhpCryptoBench\Jws;

use PhpCryptoBench\Exception\SignatureRejected;
use PhpCryptoBench\Exception\WeakKey;
use OpenSSLAsymmetricKey;

/** HS256, HS384, HS512 (RFC 7518 section 3.2): a shared secret at least as long as the hash. */
final class Hmac implements Algorithm
{
    private function __construct(
        private readonly string $name,
        private readonly string $hash,
        private readonly int $tagBytes,
    ) {
    }

    public static function named(string $name): self
    {
        $hash = 'sha' . substr($name, 2);
        return new self($name, $hash, strlen(hash($hash, '', true)));
    }

    public function name(): string
    {
        return $this->name;
    }

    public function bytes(): int
    {
        return $this->tagBytes;
    }

    public function hash(): string
    {
        return $this->hash;
    }

    public function facts(mixed $key, bool $forSigning, KeyDetails $details): KeyFacts
    {
        if ($key instanceof OpenSSLAsymmetricKey) {
            // The RS256-to-HS256 confusion: a public key's bytes used as an HMAC secret.
            throw WeakKey::wrongType($this->name, 'a shared secret (string)', 'an asymmetric key');
        }
        if (!is_string($key)) {
            throw WeakKey::wrongType($this->name, 'a shared secret (string)', get_debug_type($key));
        }
        if (str_contains($key, '-----BEGIN')) {
            throw WeakKey::wrongType($this->name, 'a random shared secret', 'PEM text, which looks like a public key');
        }
        if (strlen($key) < $this->bytes()) {
            throw WeakKey::hmacTooShort($this->name, $this->bytes(), strlen($key));
        }
        // A shared secret is both halves: whoever verifies can also sign.
        return new KeyFacts('oct', strlen($key) * 8, null, true);
    }

    public function sign(Key $key, string $input): string
    {
        return hash_hmac($this->hash, $input, $key->material, true);
    }

    public function verify(Key $key, string $input, string $signature): bool
    {
        if (strlen($signature) !== $this->bytes()) {
            throw SignatureRejected::length($this->name, $this->bytes(), strlen($signature));
        }
        return hash_equals($this->sign($key, $input), $signature);
    }
}
