<?php

declare(strict_types=1);

namespace PhpCryptoBench\Tests\Jws;

use PhpCryptoBench\Jws\OpensslErrors;
use PHPUnit\Framework\TestCase;

final class OpensslErrorsTest extends TestCase
{
    public function testDrainReturnsTheQueuedReasonsAndLeavesTheQueueEmpty(): void
    {
        OpensslErrors::drain();
        self::assertFalse(@openssl_pkey_get_public('not a key'));

        $reasons = OpensslErrors::drain();

        self::assertNotSame([], $reasons, 'a key that did not decode queues its reasons');
        self::assertFalse(openssl_error_string());
        self::assertSame([], OpensslErrors::drain());
    }
}
