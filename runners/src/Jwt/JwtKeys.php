<?php

declare(strict_types=1);

namespace PhpCryptoBench\Jwt;

/** Where JwtExperiment takes each algorithm's private key (or HMAC secret) from, before anything is timed. */
interface JwtKeys
{
    public function privateKey(JwtScheme $scheme): mixed;
}
