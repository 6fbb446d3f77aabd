<?php

declare(strict_types=1);

namespace PhpCryptoBench\Tests\Aead;

use PhpCryptoBench\Aead\AeadExperiment;
use PHPUnit\Framework\TestCase;

/** The tests' smaller AEAD payloads (PHPCB_TEST_AEAD_MAX_BYTES, under the fake clock only). */
final class TestPayloadsTest extends TestCase
{
    public function testUnderTheFakeClockOnlyThePayloadsOfAtMostThatManyBytesAreKept(): void
    {
        self::assertSame([16, 1024, 16384, 524288], AeadExperiment::payloads(true, '524288'));
        self::assertSame([16, 1024], AeadExperiment::payloads(true, '16383'));
    }

    public function testARunOnTheRealClockMeasuresEveryPayload(): void
    {
        self::assertSame(AeadExperiment::PAYLOADS, AeadExperiment::payloads(false, '524288'));
    }

    public function testWithoutAWholeNumberEveryPayloadIsKept(): void
    {
        self::assertSame(AeadExperiment::PAYLOADS, AeadExperiment::payloads(true, false));
        self::assertSame(AeadExperiment::PAYLOADS, AeadExperiment::payloads(true, '512KiB'));
        self::assertSame(AeadExperiment::PAYLOADS, AeadExperiment::payloads(true, ''));
    }
}
