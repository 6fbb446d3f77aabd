<?php

declare(strict_types=1);

namespace PhpCryptoBench\Jws;

use PhpCryptoBench\Exception\MalformedToken;

/** base64url without padding (RFC 7515 section 2); decoding accepts only the canonical form. */
final class Base64Url
{
    /**
     * The characters a canonical encoding may end with, by its length modulo 4: after 2 or 3
     * characters of a last group, 4 or 2 of the last character's bits are unused and must be zero
     * (RFC 4648 section 3.5); two encodings of one value differ only there.
     */
    private const CANONICAL_LAST = [2 => 'AQgw', 3 => 'AEIMQUYcgkosw048'];

    public static function encode(string $bytes): string
    {
        return rtrim(strtr(base64_encode($bytes), '+/', '-_'), '=');
    }

    /** @throws MalformedToken for padding, white space, characters outside the alphabet, or non-zero trailing bits */
    public static function decode(string $text, string $part = 'value'): string
    {
        $length = strlen($text);
        $tail = $length % 4;
        // One translation to the standard alphabet, in which the standard alphabet's own '+' and '/'
        // become '*', a character strict base64_decode() refuses like any outside both alphabets. It
        // skips white space and takes '=' padding: a skipped character leaves fewer bytes than the
        // length promises (3 per 4 characters; one skipped after a full group leaves a tail of 1).
        // No regex (15 instructions a character) and no search for '+' and '/' after the translation.
        $bytes = $tail === 1 ? false : base64_decode(strtr($text, '-_+/', '+/**'), true);
        if ($bytes === false || strlen($bytes) !== intdiv(3 * $length, 4)) {
            throw MalformedToken::notBase64Url($part);
        }
        if ($tail > 1 && !str_contains(self::CANONICAL_LAST[$tail], $text[$length - 1])) {
            throw MalformedToken::notBase64Url($part);
        }
        return $bytes;
    }
}
