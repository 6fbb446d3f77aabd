<?php

declare(strict_types=1);

namespace PhpCryptoBench\Environment;

/**
 * Everything in the runner that differs between the PHP versions it supports (8.1 to 8.4), in one
 * place. Each method says what differs and why; everywhere else the code is plain PHP 8.1, which
 * runners/tests/Environment/PhpCompatibilityTest.php checks (this is the only file allowed to call
 * a function newer than 8.1, and only behind a PHP_VERSION_ID check).
 *
 * Every method takes the version as a parameter (default: this PHP), so the tests run the 8.1
 * path on any newer PHP too.
 */
final class PhpFeatures
{
    /** The oldest PHP the runner supports (readonly properties, enums, new in initializers: 8.1). */
    public const MINIMUM_VERSION_ID = 80100;
    public const MINIMUM_VERSION = '8.1';

    /**
     * openssl_cipher_key_length() is new in PHP 8.2. PHP 8.1 has openssl_cipher_iv_length() but
     * no way to ask for a cipher's key length, so there the length comes from the cipher's name
     * (keyLengthFromName). Both paths look the name up the same way (EVP_get_cipherbyname), so a
     * name either PHP does not know gives false, with openssl_cipher_iv_length()'s warning.
     *
     * @return int|false the key length in bytes; false when this OpenSSL, through PHP, has no such cipher
     */
    public static function cipherKeyLength(string $cipher, int $versionId = PHP_VERSION_ID): int|false
    {
        if (self::hasCipherKeyLength($versionId)) {
            return @openssl_cipher_key_length($cipher);
        }
        if (@openssl_cipher_iv_length($cipher) === false) {
            return false;
        }
        return self::keyLengthFromName($cipher) ?? false;
    }

    /** Whether openssl_cipher_key_length() exists: PHP 8.2 and newer. */
    public static function hasCipherKeyLength(int $versionId = PHP_VERSION_ID): bool
    {
        return $versionId >= 80200;
    }

    /**
     * The default key length OpenSSL gives each cipher it names (EVP_CIPHER_key_length), from the
     * name alone: PHP 8.1's only way to it. Null for a name this table does not know. The tests
     * compare it with openssl_cipher_key_length() for every cipher OpenSSL lists, with and
     * without the legacy provider.
     */
    public static function keyLengthFromName(string $cipher): ?int
    {
        $name = strtolower($cipher);
        if (preg_match('/^(?:id-)?(?:aes|aria|camellia)-?(128|192|256)(?:-|$)/', $name, $match) === 1) {
            $bytes = intdiv((int) $match[1], 8);
            // XTS and SIV take two keys of that size.
            return preg_match('/-(?:xts|siv)$/', $name) === 1 ? 2 * $bytes : $bytes;
        }
        return match (true) {
            str_starts_with($name, 'chacha20') => 32,
            str_starts_with($name, 'des-ede3'), str_starts_with($name, 'des3'), str_starts_with($name, 'desx'),
            $name === 'id-smime-alg-cms3deswrap' => 24,
            str_starts_with($name, 'des-ede') => 16,
            str_starts_with($name, 'des-'), $name === 'des' => 8,
            str_starts_with($name, 'rc2-40'), str_starts_with($name, 'rc4-40') => 5,
            str_starts_with($name, 'rc2-64') => 8,
            preg_match('/^(?:rc2|rc4|bf|blowfish|cast5|cast|idea|seed|sm4)(?:-|$)/', $name) === 1 => 16,
            default => null,
        };
    }
}
