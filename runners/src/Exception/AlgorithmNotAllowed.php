<?php

declare(strict_types=1);

namespace PhpCryptoBench\Exception;

use RuntimeException;

/** The token names an algorithm the caller did not allow for this key (RFC 8725 sections 3.1 and 3.2). */
final class AlgorithmNotAllowed extends RuntimeException implements BenchException
{
    public static function none(): self
    {
        return new self('header alg: expected a signature algorithm, got "none" (an unsigned token is never accepted)');
    }

    public static function mismatch(string $allowed, string $found): self
    {
        return new self(sprintf('header alg: expected "%s", the algorithm bound to this key, got "%s"', $allowed, $found));
    }

    /** @param string $found the member's type, or "no alg member" */
    public static function notAString(string $found): self
    {
        return new self(sprintf('header alg: expected a string, got %s', $found));
    }

    /** @param string $found the caller's `alg`, as JSON */
    public static function callerHeader(string $keys, string $found): self
    {
        return new self(sprintf('header alg: expected "%s", the algorithm bound to the signing key, or no alg member, got %s', $keys, $found));
    }

    public static function unsupported(string $name): self
    {
        return new self(sprintf('expected one of ES256, ES384, ES512, RS256, RS384, RS512, PS256, PS384, PS512, EdDSA, HS256, HS384, HS512, got "%s"', $name));
    }

    public static function criticalHeader(string $names): self
    {
        return new self(sprintf('header crit: expected no critical extensions this verifier does not understand, got %s', $names));
    }
}
