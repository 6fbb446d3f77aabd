<?php

declare(strict_types=1);

namespace PhpCryptoBench\Symmetric;

use PhpCryptoBench\Exception\InvalidPadding;

/** PKCS#7 (RFC 5652 section 6.3), done explicitly: mcrypt would otherwise pad with zero bytes. */
final class Pkcs7
{
    public static function pad(string $data, int $blockBytes): string
    {
        $padBytes = $blockBytes - strlen($data) % $blockBytes;
        return $data . str_repeat(chr($padBytes), $padBytes);
    }

    /** @throws InvalidPadding */
    public static function unpad(string $data, int $blockBytes): string
    {
        $length = strlen($data);
        if ($length === 0 || $length % $blockBytes !== 0) {
            throw InvalidPadding::length($blockBytes, $length);
        }
        $padBytes = ord($data[$length - 1]);
        if ($padBytes < 1 || $padBytes > $blockBytes) {
            throw InvalidPadding::padByte($blockBytes, $padBytes);
        }
        if (!hash_equals(str_repeat(chr($padBytes), $padBytes), substr($data, -$padBytes))) {
            throw InvalidPadding::inconsistent($padBytes);
        }
        return substr($data, 0, -$padBytes);
    }
}
