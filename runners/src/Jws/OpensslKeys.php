<?php

declare(strict_types=1);

namespace PhpCryptoBench\Jws;

use OpenSSLAsymmetricKey;
use PhpCryptoBench\Exception\WeakKey;

/** What ext-openssl says about a key, for the algorithms' key checks. */
final class OpensslKeys
{
    /** @return array<string, mixed> */
    public static function details(string $algorithm, mixed $key, int $type, string $expected): array
    {
        $details = $key instanceof OpenSSLAsymmetricKey ? openssl_pkey_get_details($key) : false;
        if ($details === false || $details['type'] !== $type) {
            throw WeakKey::wrongType($algorithm, $expected, get_debug_type($key) . ($details === false ? '' : ' of another type'));
        }
        return $details;
    }

    /** Whether an OpenSSL key object holds its private half (EC: d; RSA: d). */
    public static function isPrivate(array $details): bool
    {
        return isset($details['ec']['d']) || isset($details['rsa']['d']);
    }
}
