<?php

declare(strict_types=1);

namespace PhpCryptoBench\Jws;

use OpenSSLAsymmetricKey;

/**
 * Where the JWS code asks OpenSSL about a key (openssl_pkey_get_details()). One seam, so that a
 * test can count the questions: a Key asks when it is made, never when it signs or verifies.
 */
interface KeyDetails
{
    /** @return array<string, mixed>|false what openssl_pkey_get_details() returns */
    public function of(OpenSSLAsymmetricKey $key): array|false;
}
