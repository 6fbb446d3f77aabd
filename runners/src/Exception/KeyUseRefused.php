<?php

declare(strict_types=1);

namespace PhpCryptoBench\Exception;

use RuntimeException;

/** A JWK whose declared use, key operations or algorithm (RFC 7517 sections 4.2-4.4) exclude what it was asked to do. */
final class KeyUseRefused extends RuntimeException implements BenchException
{
    public static function use(string $operation, string $found): self
    {
        return new self(sprintf('JWK use: expected "sig" to %s, got "%s" (RFC 7517 section 4.2)', $operation, $found));
    }

    public static function keyOps(string $operation, string $found): self
    {
        return new self(sprintf('JWK key_ops: expected "%s" among them, got %s (RFC 7517 section 4.3)', $operation, $found));
    }

    public static function inconsistent(string $found): self
    {
        return new self(sprintf('JWK use "sig" with key_ops %s: expected only "sign" and "verify" beside it (RFC 7517 section 4.3)', $found));
    }

    public static function algorithm(string $asked, string $found): self
    {
        return new self(sprintf('JWK alg: expected "%s", the algorithm asked for, got "%s" (RFC 7517 section 4.4)', $asked, $found));
    }

    public static function malformed(string $member, string $expected, string $found): self
    {
        return new self(sprintf('JWK %s: expected %s, got %s', $member, $expected, $found));
    }
}
