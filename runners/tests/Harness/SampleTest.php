<?php

declare(strict_types=1);

namespace PhpCryptoBench\Tests\Harness;

use PhpCryptoBench\Harness\Sample;
use PHPUnit\Framework\TestCase;

/** A sample's columns, as every table of samples writes them. */
final class SampleTest extends TestCase
{
    public function testTheColumnsAreTheSamplesOwnFigures(): void
    {
        self::assertSame(['sample' => 3, 'iterations' => 40, 'elapsed_ns' => 120_000], (new Sample(3, 40, 120_000, 7))->columns());
    }

    public function testACaseMeasuredOverRoundsContinuesItsNumbering(): void
    {
        self::assertSame(12, (new Sample(2, 1, 5))->columns(10)['sample']);
    }

    public function testThePageFaultsAreAddedOnlyWhenAsked(): void
    {
        self::assertSame(
            ['sample' => 0, 'iterations' => 8, 'elapsed_ns' => 900, 'minor_faults' => 7],
            (new Sample(0, 8, 900, 7))->columnsWithFaults(),
        );
    }
}
