<?php

declare(strict_types=1);

namespace PhpCryptoBench\Tests\Aead;

use PhpCryptoBench\Aead\OpensslAead;
use PhpCryptoBench\Aead\SodiumAead;
use PhpCryptoBench\Aead\TamperCheck;
use PhpCryptoBench\Exception\VerificationFailed;
use PhpCryptoBench\Tests\Support\LenientGcm;
use PHPUnit\Framework\TestCase;

final class TamperCheckTest extends TestCase
{
    public function testEveryTamperingIsRejectedByTheCheckedWrappers(): void
    {
        $check = new TamperCheck();
        self::assertSame([
            'a flipped bit in the ciphertext',
            'a flipped bit in the tag',
            'a flipped bit in the AAD',
            'a flipped bit in the nonce',
            'the tag truncated to 15 bytes',
            'the tag truncated to 4 bytes',
        ], $check->run(new OpensslAead('aes-256-gcm')));
        self::assertContains('the tag truncated to 7 bytes', $check->run(new OpensslAead('aes-128-ccm', 12, 8)));
        self::assertCount(6, $check->run(new SodiumAead('xchacha20poly1305-ietf')));
    }

    public function testALenientGcmThatAcceptsATruncatedTagFailsTheCheck(): void
    {
        $this->expectException(VerificationFailed::class);
        $this->expectExceptionMessage('lenient-aes-128-gcm: expected rejection of the tag truncated to 15 bytes, but decryption succeeded');
        (new TamperCheck())->run(new LenientGcm());
    }

    public function testThisPhpAcceptsATruncatedGcmTagWhenNobodyChecks(): void
    {
        // Documents the PHP behaviour the report warns about; if PHP fixes it, this test says so.
        self::assertTrue(TamperCheck::rawPhpAcceptsTruncatedGcmTag());
    }
}
