<?php

declare(strict_types=1);

/*
 * A new P-256 private key from openssl_pkey_new(), with 'config' naming a minimal OpenSSL
 * configuration file. Not openssl_pkey_new(['private_key_type' => OPENSSL_KEYTYPE_EC, 'curve_name' => 'prime256v1'])
 * alone: ext-openssl then reads and parses the system's openssl.cnf (hundreds of lines) on every call.
 *
 * The configuration: a file with a [ req ] section holding default_bits and default_md, nothing
 * else (phpcrypto-bench's runners/openssl-minimal.cnf is one), kept with your code. The curve and
 * key type come from the call. The key is new and random: keep it secret (openssl_pkey_export()
 * with a passphrase, or a key store), and publish only openssl_pkey_get_details($key)['key'].
 *
 *   $key = p256_new_private_key(__DIR__ . '/openssl-minimal.cnf');
 *
 * PHPUnit runs this file: runners/tests/Snippets/P256KeygenMinimalConfigTest.php (phpcrypto-bench).
 */

function p256_new_private_key(string $minimalConfig): OpenSSLAsymmetricKey
{
    // openssl_pkey_new() fails on a missing file with OpenSSL's words only: name the file.
    if (!is_file($minimalConfig) || !is_readable($minimalConfig)) {
        throw new InvalidArgumentException(sprintf('expected a readable OpenSSL configuration file at %s, found none', $minimalConfig));
    }
    $key = openssl_pkey_new(['private_key_type' => OPENSSL_KEYTYPE_EC, 'curve_name' => 'prime256v1', 'config' => $minimalConfig]);
    if ($key === false) {
        throw new RuntimeException('openssl_pkey_new() failed: ' . openssl_error_string());
    }
    return $key;
}
