<?php

declare(strict_types=1);

namespace PhpCryptoBench\Jws;

use PhpCryptoBench\Exception\MalformedToken;

/** base64url without padding (RFC 7515 section 2); decoding accepts only the canonical form. */
final class Base64Url
{
    public static function encode(string $bytes): string
    {
        return rtrim(strtr(base64_encode($bytes), '+/', '-_'), '=');
    }

    /** @throws MalformedToken for padding, characters outside the alphabet, or non-zero trailing bits */
    public static function decode(string $text, string $part = 'value'): string
    {
        if (preg_match('/^[A-Za-z0-9_-]*$/', $text) !== 1 || strlen($text) % 4 === 1) {
            throw MalformedToken::notBase64Url($part);
        }
        $bytes = base64_decode(strtr($text, '-_', '+/'), true);
        // Two encodings of one value differ only in their unused trailing bits: re-encoding tells.
        if ($bytes === false || self::encode($bytes) !== $text) {
            throw MalformedToken::notBase64Url($part);
        }
        return $bytes;
    }
}
