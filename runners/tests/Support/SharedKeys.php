<?php

declare(strict_types=1);

namespace PhpCryptoBench\Tests\Support;

use OpenSSLAsymmetricKey;
use RuntimeException;

/**
 * One RSA private key of each size for the whole suite, for tests that only sign, verify or read a
 * key: an RSA-2048 key costs a tenth of a CPU-second to make and RSA-3072 a third, paid twice per
 * `make test` (both stacks). Two keys of one size are distinct (OpenSSL draws each from its random
 * generator), so otherRsa() serves where a test needs a second key; a test that needs a key made
 * in front of it makes its own.
 */
final class SharedKeys
{
    /** @var array<int, OpenSSLAsymmetricKey> */
    private static array $rsa = [];
    /** @var array<int, OpenSSLAsymmetricKey> */
    private static array $otherRsa = [];

    public static function rsa(int $bits): OpenSSLAsymmetricKey
    {
        return self::$rsa[$bits] ??= self::newRsa($bits);
    }

    /** A second key of the size, never rsa($bits): its signatures are another key's. */
    public static function otherRsa(int $bits): OpenSSLAsymmetricKey
    {
        return self::$otherRsa[$bits] ??= self::newRsa($bits);
    }

    private static function newRsa(int $bits): OpenSSLAsymmetricKey
    {
        $key = openssl_pkey_new(['private_key_type' => OPENSSL_KEYTYPE_RSA, 'private_key_bits' => $bits]);
        if (!$key instanceof OpenSSLAsymmetricKey) {
            throw new RuntimeException(sprintf('RSA-%d key generation failed: %s', $bits, (string) openssl_error_string()));
        }
        return $key;
    }
}
