<?php

declare(strict_types=1);

namespace PhpCryptoBench\Tests\Support;

use OpenSSLAsymmetricKey;
use PhpCryptoBench\Jws\KeyDetails;
use PhpCryptoBench\Jws\OpensslKeyDetails;

/** OpenSSL's answers about keys, counted: how often the JWS code asked. */
final class CountingKeyDetails implements KeyDetails
{
    public int $questions = 0;

    public function of(OpenSSLAsymmetricKey $key): array|false
    {
        $this->questions++;
        return (new OpensslKeyDetails())->of($key);
    }
}
