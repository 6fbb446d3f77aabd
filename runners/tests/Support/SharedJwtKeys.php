<?php

declare(strict_types=1);

namespace PhpCryptoBench\Tests\Support;

use PhpCryptoBench\Jwt\JwtKeys;
use PhpCryptoBench\Jwt\JwtScheme;

/**
 * The suite's RSA-2048 key (SharedKeys) for every RS and PS algorithm, and a fresh key for the others
 * (EC, Ed25519 and HMAC keys cost microseconds): a run makes six RSA keys, 0.6 CPU-seconds, before
 * anything is timed. Every RSA algorithm signs with the same key, which suits a test of what is measured.
 */
final class SharedJwtKeys implements JwtKeys
{
    public function privateKey(JwtScheme $scheme): mixed
    {
        return $scheme->keyType === 'RSA' ? SharedKeys::rsa($scheme->keyBits) : $scheme->generate();
    }
}
