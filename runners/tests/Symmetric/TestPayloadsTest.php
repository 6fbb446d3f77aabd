<?php

declare(strict_types=1);

namespace PhpCryptoBench\Tests\Symmetric;

use PhpCryptoBench\Symmetric\SymmetricExperiment;
use PHPUnit\Framework\TestCase;

/** The tests' smaller AES and Blowfish payloads (PHPCB_TEST_SYMMETRIC_MAX_BYTES, under the fake clock only). */
final class TestPayloadsTest extends TestCase
{
    public function testUnderTheFakeClockOnlyThePayloadsOfAtMostThatManyBytesAreKept(): void
    {
        self::assertSame([3, 1024, 4096], SymmetricExperiment::payloads(SymmetricExperiment::AES_PAYLOADS['quick'], true, '4096'));
        self::assertSame([3], SymmetricExperiment::payloads(SymmetricExperiment::BLOWFISH_PAYLOADS['quick'], true, '4095'));
    }

    public function testARunOnTheRealClockMeasuresEveryPayload(): void
    {
        self::assertSame(SymmetricExperiment::AES_PAYLOADS['quick'], SymmetricExperiment::payloads(SymmetricExperiment::AES_PAYLOADS['quick'], false, '4096'));
    }

    public function testWithoutAWholeNumberEveryPayloadIsKept(): void
    {
        $payloads = SymmetricExperiment::BLOWFISH_PAYLOADS['full'];
        self::assertSame($payloads, SymmetricExperiment::payloads($payloads, true, false));
        self::assertSame($payloads, SymmetricExperiment::payloads($payloads, true, '4KiB'));
        self::assertSame($payloads, SymmetricExperiment::payloads($payloads, true, ''));
    }
}
