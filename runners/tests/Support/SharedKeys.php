<?php

declare(strict_types=1);

namespace PhpCryptoBench\Tests\Support;

use OpenSSLAsymmetricKey;
use RuntimeException;

/**
 * One RSA private key of each size for the whole suite, for tests that only sign, verify or read a
 * key. The 2048- and 3072-bit ones are read from keys/ (test-only keys, made once by `openssl
 * genpkey`): making them cost a tenth and a third of a CPU-second each, and far more on a bad draw of
 * primes, paid twice per `make test` (both stacks). Other sizes are made on first use. otherRsa() is a
 * second, distinct key of the size, for a test that needs another key; a test that needs a key made
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
        return self::$rsa[$bits] ??= self::storedRsa($bits, 'rsa-' . $bits . '.pem') ?? self::newRsa($bits);
    }

    /** A second key of the size, never rsa($bits): its signatures are another key's. */
    public static function otherRsa(int $bits): OpenSSLAsymmetricKey
    {
        return self::$otherRsa[$bits] ??= self::storedRsa($bits, 'rsa-' . $bits . '-other.pem') ?? self::newRsa($bits);
    }

    private static function storedRsa(int $bits, string $file): ?OpenSSLAsymmetricKey
    {
        $path = __DIR__ . '/keys/' . $file;
        if (!is_file($path)) {
            return null;
        }
        $key = openssl_pkey_get_private((string) file_get_contents($path));
        $details = $key instanceof OpenSSLAsymmetricKey ? openssl_pkey_get_details($key) : false;
        if ($details === false || $details['type'] !== OPENSSL_KEYTYPE_RSA || $details['bits'] !== $bits) {
            throw new RuntimeException(sprintf('expected an RSA-%d private key in %s, got %s', $bits, $path, $details === false ? 'none OpenSSL reads: ' . (string) openssl_error_string() : $details['bits'] . ' bits of key type ' . $details['type']));
        }
        return $key;
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
