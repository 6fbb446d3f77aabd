<?php

declare(strict_types=1);

namespace PhpCryptoBench\Jws;

use PhpCryptoBench\Exception\MalformedToken;

/** The few DER shapes JWS needs: lengths (short and long form), INTEGER, SEQUENCE, BIT and OCTET STRING, OID, [n] EXPLICIT. */
final class Der
{
    public static function length(int $length): string
    {
        if ($length < 0x80) {
            return chr($length);
        }
        $bytes = ltrim(pack('N', $length), "\0");
        return chr(0x80 | strlen($bytes)) . $bytes;
    }

    public static function sequence(string ...$items): string
    {
        $body = implode('', $items);
        return "\x30" . self::length(strlen($body)) . $body;
    }

    /** A non-negative INTEGER from big-endian bytes: minimal, with a 0x00 in front when the top bit is set. */
    public static function unsignedInteger(string $bytes): string
    {
        $bytes = ltrim($bytes, "\0");
        if ($bytes === '' || ord($bytes[0]) & 0x80) {
            $bytes = "\0" . $bytes;
        }
        return "\x02" . self::length(strlen($bytes)) . $bytes;
    }

    public static function bitString(string $bytes): string
    {
        return "\x03" . self::length(strlen($bytes) + 1) . "\0" . $bytes;
    }

    public static function octetString(string $bytes): string
    {
        return "\x04" . self::length(strlen($bytes)) . $bytes;
    }

    /** A context-specific, constructed [n] EXPLICIT tag around one element (RFC 4055's PSS parameters). */
    public static function explicit(int $number, string $element): string
    {
        return chr(0xa0 | $number) . self::length(strlen($element)) . $element;
    }

    public static function nullValue(): string
    {
        return "\x05\x00";
    }

    /** @param string $encoded the OID's content bytes */
    public static function oid(string $encoded): string
    {
        return "\x06" . self::length(strlen($encoded)) . $encoded;
    }

    public static function pem(string $label, string $der): string
    {
        return "-----BEGIN $label-----\n" . chunk_split(base64_encode($der), 64, "\n") . "-----END $label-----\n";
    }

    /**
     * Reads one element of the given tag at $offset; returns its content and moves $offset past it.
     *
     * @throws MalformedToken
     */
    public static function read(string $der, int &$offset, int $tag): string
    {
        if (!isset($der[$offset + 1]) || ord($der[$offset]) !== $tag) {
            throw MalformedToken::der(sprintf('expected tag 0x%02x at byte %d', $tag, $offset));
        }
        $offset++;
        $length = ord($der[$offset++]);
        if ($length & 0x80) {
            $count = $length & 0x7f;
            if ($count === 0 || $count > 4 || !isset($der[$offset + $count - 1])) {
                throw MalformedToken::der('got a length field that does not fit');
            }
            $bytes = substr($der, $offset, $count);
            if ($bytes[0] === "\0") {
                throw MalformedToken::der('got a long-form length with a leading zero byte');
            }
            $length = (int) unpack('N', str_pad($bytes, 4, "\0", STR_PAD_LEFT))[1];
            if ($length < 0x80) {
                throw MalformedToken::der(sprintf('got the long form for a length of %d, which must use the short form', $length));
            }
            $offset += $count;
        }
        if ($offset + $length > strlen($der)) {
            throw MalformedToken::der(sprintf('got a length of %d past the end of the data', $length));
        }
        $content = substr($der, $offset, $length);
        $offset += $length;
        return $content;
    }
}
