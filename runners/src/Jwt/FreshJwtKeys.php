<?php

declare(strict_types=1);

namespace PhpCryptoBench\Jwt;

/** A run's keys: a new one for each algorithm (JwtScheme::generate()). */
final class FreshJwtKeys implements JwtKeys
{
    public function privateKey(JwtScheme $scheme): mixed
    {
        return $scheme->generate();
    }
}
