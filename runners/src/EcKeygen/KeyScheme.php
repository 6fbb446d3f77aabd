<?php

declare(strict_types=1);

namespace PhpCryptoBench\EcKeygen;

use PhpCryptoBench\Exception\KeyOperationFailed;

/**
 * One public-key scheme to generate keys with: a named OpenSSL curve, RSA of one size, or one of
 * sodium's Curve25519 schemes. Keys are opaque to callers; the scheme knows their type.
 */
interface KeyScheme
{
    public const KEYGEN = 'keygen';
    public const SIGN = 'sign';
    public const VERIFY = 'verify';
    public const DERIVE = 'derive';

    /** The CSV's `curve` column: the OpenSSL curve name, `RSA-2048`, `Ed25519` or `X25519`. */
    public function name(): string;

    /** @return array{interface: string, curve: string, family: string, organization: string, field_bits: int, key_bits: int, security_bits: int} */
    public function describe(): array;

    /** @return list<string> the operations this scheme can do, keygen first */
    public function operations(): array;

    /** @throws KeyOperationFailed */
    public function generate(): mixed;

    /** The public half of a generated key, in the form verify() and derive() take. */
    public function publicKey(mixed $key): mixed;

    /** @throws KeyOperationFailed */
    public function sign(mixed $key, string $message): string;

    public function verify(mixed $publicKey, string $message, string $signature): bool;

    /** @throws KeyOperationFailed */
    public function derive(mixed $key, mixed $peerPublicKey): string;
}
