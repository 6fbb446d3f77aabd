<?php

declare(strict_types=1);

namespace PhpCryptoBench\Tests\Harness;

use PhpCryptoBench\Harness\Progress;
use PHPUnit\Framework\TestCase;

final class ProgressTest extends TestCase
{
    public function testReportsCountLabelAndEta(): void
    {
        $stream = fopen('php://memory', 'w+b');
        $progress = new Progress($stream);
        $progress->begin('aead', 4, 125.0);
        $progress->advance('first case');
        rewind($stream);
        $lines = explode("\n", trim((string) stream_get_contents($stream)));

        self::assertSame('[aead] 4 cases, estimated at least 2:05', $lines[0]);
        self::assertMatchesRegularExpression('#^\[aead\] 1/4 first case  elapsed \d+:\d\d  ETA \d+:\d\d$#', $lines[1]);
    }

    public function testAModelledEstimateIsNotCalledALowerBound(): void
    {
        $stream = fopen('php://memory', 'w+b');
        (new Progress($stream))->begin('argon2', 378, 3245.0, false);
        rewind($stream);

        self::assertSame("[argon2] 378 cases, estimated 54:05\n", stream_get_contents($stream));
    }

    public function testClockFormatsMinutesAndSeconds(): void
    {
        self::assertSame('0:00', Progress::clock(0.2));
        self::assertSame('1:05', Progress::clock(65));
        self::assertSame('61:40', Progress::clock(3700));
    }
}
