<?php

declare(strict_types=1);

namespace PhpCryptoBench\Jws;

use OpenSSLAsymmetricKey;
use PhpCryptoBench\Exception\WeakKey;

/** KeyDetails from ext-openssl itself, and the checks every OpenSSL-backed algorithm makes of them. */
final class OpensslKeyDetails implements KeyDetails
{
    public function of(OpenSSLAsymmetricKey $key): array|false
    {
        return openssl_pkey_get_details($key);
    }

    /**
     * The details of $key, which must be an OpenSSL key of $type.
     *
     * @return array<string, mixed>
     * @throws WeakKey
     */
    public static function require(KeyDetails $details, string $algorithm, mixed $key, int $type, string $expected): array
    {
        $found = $key instanceof OpenSSLAsymmetricKey ? $details->of($key) : false;
        if ($found === false || $found['type'] !== $type) {
            throw WeakKey::wrongType($algorithm, $expected, get_debug_type($key) . ($found === false ? '' : ' of another type'));
        }
        return $found;
    }

    /**
     * Whether the details are of a private key (EC: d; RSA: d), which signing needs and verifying
     * must not be given: PHP's openssl_verify() refuses a private key object (with a warning, and
     * false for every token), so a verifier holding one would refuse everything, unexplained.
     *
     * @param array<string, mixed> $found
     * @throws WeakKey a public key to sign with, or a private key to verify with
     */
    public static function requireHalf(array $found, string $algorithm, bool $forSigning): bool
    {
        $private = isset($found['ec']['d']) || isset($found['rsa']['d']);
        if ($private !== $forSigning) {
            throw $forSigning
                ? WeakKey::wrongType($algorithm, 'a private key to sign with', 'a public key')
                : WeakKey::wrongType($algorithm, 'a public key to verify with', 'a private key (verify with its public half: Jwk::publicOf)');
        }
        return $private;
    }
}
