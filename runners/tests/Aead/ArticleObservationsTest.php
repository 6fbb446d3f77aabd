<?php

declare(strict_types=1);

namespace PhpCryptoBench\Tests\Aead;

use PhpCryptoBench\Aead\ArticleObservations;
use PHPUnit\Framework\TestCase;

final class ArticleObservationsTest extends TestCase
{
    public function testOpensslSaysNothingAfterAnAuthenticationFailure(): void
    {
        self::assertNull(ArticleObservations::errorStringAfterTagFailure());
    }

    public function testTagLengthsEachModeAccepts(): void
    {
        self::assertSame(range(1, 16), ArticleObservations::tagBytesAccepted('aes-256-gcm'));
        self::assertSame([4, 6, 8, 10, 12, 14, 16], ArticleObservations::tagBytesAccepted('aes-256-ccm'));
    }

    public function testAShorterGcmTagIsAPrefixAndAShorterCcmTagIsNot(): void
    {
        self::assertTrue(ArticleObservations::shorterTagIsPrefix('aes-256-gcm'));
        self::assertFalse(ArticleObservations::shorterTagIsPrefix('aes-256-ccm'));
    }

    public function testDefaultsAndTheCcmLengthLimit(): void
    {
        $observed = ArticleObservations::observe();
        self::assertSame(['aes-256-gcm' => 16, 'aes-256-ccm' => 16], $observed['default_tag_bytes']);
        self::assertSame((1 << 24) - 1, $observed['ccm_max_message_bytes']);
        self::assertSame(ArticleObservations::tagBytesAccepted('aes-256-ccm'), $observed['ccm_tag_bytes_accepted']);
    }
}
