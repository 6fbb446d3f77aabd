<?php

declare(strict_types=1);

namespace PhpCryptoBench\Jws;

/** A token whose signature verified with the key bound to its algorithm. */
final class VerifiedToken
{
    /**
     * @param array<string, mixed> $header
     * @param array<string, mixed>|null $claims the payload as a JWT claims set, when verified as a JWT
     */
    public function __construct(
        public readonly array $header,
        public readonly string $payload,
        public readonly ?array $claims = null,
    ) {
    }
}
