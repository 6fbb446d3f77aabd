<?php

declare(strict_types=1);

namespace PhpCryptoBench\Tests\Harness;

use PhpCryptoBench\Harness\MemoryLimit;
use PHPUnit\Framework\TestCase;

final class MemoryLimitTest extends TestCase
{
    public function testSettingsAreReadAsPhpReadsThem(): void
    {
        self::assertSame([-1, -1, 134_217_728, 2_097_152, 1_073_741_824, 65_536], array_map(MemoryLimit::bytes(...), ['-1', '', '128M', '2048k', '1G', '65536']));
    }

    public function testOnlyWhatFitsUnderThreeQuartersOfTheLimitIsAllowed(): void
    {
        $limit = ini_get('memory_limit');
        ini_set('memory_limit', (string) (memory_get_usage() + 40 * 1024 * 1024));
        try {
            self::assertTrue(MemoryLimit::allows(1024 * 1024));
            self::assertFalse(MemoryLimit::allows(40 * 1024 * 1024));
        } finally {
            ini_set('memory_limit', (string) $limit);
        }
    }
}
