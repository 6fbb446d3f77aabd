<?php

declare(strict_types=1);

namespace PhpCryptoBench\Jws;

use PhpCryptoBench\Tests\Support\HashEqualsSpy;

/** hash_equals() as the JWS code calls it, recorded (HashEqualsSpy) and then called. */
function hash_equals(string $known, string $user): bool
{
    HashEqualsSpy::$calls[] = [$known, $user];
    return \hash_equals($known, $user);
}
