<?php

declare(strict_types=1);

namespace PhpCryptoBench\Tests\Support;

/**
 * The calls the JWS code makes to hash_equals(), recorded by the function below: an unqualified call
 * in namespace PhpCryptoBench\Jws looks for PhpCryptoBench\Jws\hash_equals() before the global one.
 * It is declared by the test bootstrap, before any JWS code runs: PHP keeps the function a call site
 * resolved to on its first run.
 */
final class HashEqualsSpy
{
    /** @var list<array{string, string}> each call's known and user strings */
    public static array $calls = [];
}
