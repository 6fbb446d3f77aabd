<?php

declare(strict_types=1);

namespace PhpCryptoBench\Tests\Harness;

use PhpCryptoBench\Harness\HrTimer;
use PHPUnit\Framework\TestCase;

final class HrTimerTest extends TestCase
{
    public function testItCountsThePageFaultsOfFreshlyMappedMemory(): void
    {
        $timer = new HrTimer();
        $before = $timer->minorFaults();
        // 8 MiB is a huge block to PHP's allocator: mapped for this string and touched by str_repeat.
        $fresh = str_repeat('x', 8 * 1024 * 1024);

        self::assertSame(8 * 1024 * 1024, strlen($fresh));
        self::assertGreaterThan($before, $timer->minorFaults());
    }
}
