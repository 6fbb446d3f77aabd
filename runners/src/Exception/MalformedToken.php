<?php

declare(strict_types=1);

namespace PhpCryptoBench\Exception;

use RuntimeException;

/** A token, JWK or signature encoding that is not what RFC 7515/7517/7518 allow. */
final class MalformedToken extends RuntimeException implements BenchException
{
    public static function partCount(int $parts): self
    {
        return new self(sprintf('expected a compact JWS of 3 dot-separated parts, got %d', $parts));
    }

    public static function notBase64Url(string $part): self
    {
        return new self(sprintf('%s: expected canonical unpadded base64url (RFC 7515 section 2), got other characters, padding or non-zero trailing bits', $part));
    }

    public static function headerNotObject(string $found): self
    {
        return new self(sprintf('header: expected a JSON object, got %s', $found));
    }

    public static function claimsNotObject(string $found): self
    {
        return new self(sprintf('payload: expected a JSON object of claims, got %s', $found));
    }

    public static function der(string $detail): self
    {
        return new self(sprintf('ECDSA signature: expected DER SEQUENCE { INTEGER r, INTEGER s }, %s', $detail));
    }

    public static function jwk(string $detail): self
    {
        return new self(sprintf('JWK: %s', $detail));
    }
}
