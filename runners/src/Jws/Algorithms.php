<?php

declare(strict_types=1);

namespace PhpCryptoBench\Jws;

use PhpCryptoBench\Exception\AlgorithmNotAllowed;

/** The algorithms this JWS code implements, by their `alg` names. There is no `none`. */
final class Algorithms
{
    public const NAMES = ['ES256', 'ES384', 'ES512', 'RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512', 'EdDSA', 'HS256', 'HS384', 'HS512'];

    /** @throws AlgorithmNotAllowed */
    public static function named(string $name): Algorithm
    {
        return match ($name) {
            'ES256' => Ecdsa::es256(),
            'ES384' => Ecdsa::es384(),
            'ES512' => Ecdsa::es512(),
            'RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512' => Rsa::named($name),
            'EdDSA' => new EdDsa(),
            'HS256', 'HS384', 'HS512' => Hmac::named($name),
            'none' => throw AlgorithmNotAllowed::none(),
            default => throw AlgorithmNotAllowed::unsupported($name),
        };
    }
}
