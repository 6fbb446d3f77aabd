<?php

declare(strict_types=1);

namespace PhpCryptoBench\Pq;

use ReflectionFunction;
use ReflectionParameter;

/**
 * What PHP's openssl extension cannot do yet with post-quantum keys, observed on this PHP rather than
 * assumed: the page states each from what the run recorded (the manifest's verification.observed).
 */
final class PhpLimits
{
    /**
     * @param KeyPair $mlDsa an ML-DSA key the CLI made
     * @param string $mlKemPem an ML-KEM private key the CLI made
     * @return array<string, mixed>
     */
    public static function observe(KeyPair $mlDsa, string $mlKemPem): array
    {
        $types = self::keyTypeConstants();
        $details = openssl_pkey_get_details($mlDsa->private) ?: [];
        $kem = openssl_pkey_get_private($mlKemPem);
        $kemDetails = $kem === false ? [] : (openssl_pkey_get_details($kem) ?: []);
        $extension = get_extension_funcs('openssl') ?: [];
        $digestRefused = self::signsWith($mlDsa, OPENSSL_ALGO_SHA256) === null;
        $digestError = self::lastError();
        $first = self::signsWith($mlDsa, 0);
        $second = self::signsWith($mlDsa, 0);
        $parameters = array_map(static fn (ReflectionParameter $p): string => $p->getName(), (new ReflectionFunction('openssl_sign'))->getParameters());
        return [
            // openssl_pkey_new() names a key type by these constants (or an EC curve by name): none is ML-DSA's or ML-KEM's.
            'key_type_constants' => array_keys($types),
            'pkey_new_makes_ml_dsa' => self::pkeyNewMakes($mlDsa->scheme->name),
            'details_type' => $details['type'] ?? null,
            'details_type_known' => in_array($details['type'] ?? null, $types, true),
            'details_fields' => array_keys($details),
            'sign_with_digest_refused' => $digestRefused,
            'sign_with_digest_error' => $digestError,
            'signatures_randomized' => $first !== null && $second !== null && $first !== $second,
            'sign_parameters' => $parameters,
            'context_parameter' => array_filter($parameters, static fn (string $name): bool => str_contains(strtolower($name), 'context')) !== [],
            'ml_kem_loads' => $kem !== false,
            'ml_kem_details_type' => $kemDetails['type'] ?? null,
            'kem_functions' => array_values(array_filter($extension, static fn (string $f): bool => preg_match('/kem|encap|decap/i', $f) === 1)),
            'ml_kem_derive' => $kem !== false && self::derives($kem, $mlKemPem),
        ];
    }

    /** @return array<string, int> every OPENSSL_KEYTYPE_* constant this PHP defines */
    public static function keyTypeConstants(): array
    {
        $constants = get_defined_constants(true)['openssl'] ?? [];
        return array_filter($constants, static fn (mixed $value, string $name): bool => str_starts_with($name, 'OPENSSL_KEYTYPE_') && is_int($value), ARRAY_FILTER_USE_BOTH);
    }

    /** Whether openssl_pkey_new() makes a key when asked for the parameter set by name, the one way it takes a name. */
    private static function pkeyNewMakes(string $name): bool
    {
        $key = @openssl_pkey_new(['private_key_type' => OPENSSL_KEYTYPE_EC, 'curve_name' => $name]);
        self::lastError();
        return $key !== false;
    }

    private static function signsWith(KeyPair $keys, int $digest): ?string
    {
        $signature = '';
        return @openssl_sign('what PHP can sign', $signature, $keys->private, $digest) ? $signature : null;
    }

    /** Whether openssl_pkey_derive() gives a shared secret from an ML-KEM key pair (a KEM encapsulates instead). */
    private static function derives(\OpenSSLAsymmetricKey $kem, string $pem): bool
    {
        $details = openssl_pkey_get_details($kem) ?: [];
        $public = openssl_pkey_get_public((string) ($details['key'] ?? ''));
        $secret = $public === false ? false : @openssl_pkey_derive($public, $pem);
        self::lastError();
        return is_string($secret) && $secret !== '';
    }

    /** The last of OpenSSL's queued errors (the queue emptied), or null. */
    private static function lastError(): ?string
    {
        $last = null;
        while (($error = openssl_error_string()) !== false) {
            $last = $error;
        }
        return $last;
    }
}
