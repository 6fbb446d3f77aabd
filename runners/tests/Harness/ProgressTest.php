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

    public function testALongGroupSaysItIsStillSamplingWhenNothingWasSaidForThirtySeconds(): void
    {
        $stream = fopen('php://memory', 'w+b');
        $now = 0;
        $progress = new Progress($stream, static function () use (&$now): int {
            return $now;
        });
        $progress->begin('symmetric', 336);
        $now = 29_000_000_000;
        $progress->stillSampling(116, 116, 3);
        $now = 31_000_000_000;
        $progress->stillSampling(116, 116, 4);
        $progress->stillSampling(116, 116, 5);
        $now = 45_000_000_000;
        $progress->advance('openssl aes-128-cbc roundtrip');
        $now = 70_000_000_000;
        $progress->stillSampling(90, 116, 9);
        $now = 76_000_000_000;
        $progress->stillSampling(88, 116, 10);
        rewind($stream);
        $lines = explode("\n", trim((string) stream_get_contents($stream)));

        self::assertSame([
            '[symmetric] 336 cases',
            '[symmetric] 0/336 still sampling: 116 of the 116 cases of this group after 4 rounds  elapsed 0:31',
            '[symmetric] 1/336 openssl aes-128-cbc roundtrip  elapsed 0:45  ETA 251:15',
            '[symmetric] 1/336 still sampling: 88 of the 116 cases of this group after 10 rounds  elapsed 1:16',
        ], $lines);
    }

    public function testClockFormatsMinutesAndSeconds(): void
    {
        self::assertSame('0:00', Progress::clock(0.2));
        self::assertSame('1:05', Progress::clock(65));
        self::assertSame('61:40', Progress::clock(3700));
    }
}
