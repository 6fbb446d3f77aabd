<?php

declare(strict_types=1);

namespace PhpCryptoBench\Tests\Argon2;

use PhpCryptoBench\Argon2\Argon2Cell;
use PhpCryptoBench\Argon2\Argon2Experiment;
use PHPUnit\Framework\TestCase;

/** The tests' smaller Argon2 grid (PHPCB_TEST_ARGON2_MAX_MIB, under the fake clock only). */
final class TestGridTest extends TestCase
{
    /** @return list<Argon2Cell> */
    private static function cells(): array
    {
        return [Argon2Cell::of('sodium', 'argon2id', 16 * 1024, 1, 1), Argon2Cell::of('sodium', 'argon2id', 19 * 1024, 1, 2), Argon2Cell::of('password_hash', 'argon2id', 64 * 1024, 2, 3)];
    }

    public function testOnlyTheCellsOfAtMostThatMuchMemoryAreKept(): void
    {
        $kept = Argon2Experiment::forTests(self::cells(), '16');
        self::assertSame([16 * 1024], array_map(static fn (Argon2Cell $cell): int => $cell->memoryKib, $kept));
    }

    public function testTheLimitIsInclusive(): void
    {
        self::assertCount(2, Argon2Experiment::forTests(self::cells(), '19'));
    }

    public function testWithoutAWholeNumberTheGridIsWhole(): void
    {
        self::assertCount(3, Argon2Experiment::forTests(self::cells(), false));
        self::assertCount(3, Argon2Experiment::forTests(self::cells(), '16MiB'));
        self::assertCount(3, Argon2Experiment::forTests(self::cells(), ''));
    }
}
