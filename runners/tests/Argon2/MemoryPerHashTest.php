<?php

declare(strict_types=1);

namespace PhpCryptoBench\Tests\Argon2;

use PhpCryptoBench\Argon2\Argon2Cell;
use PhpCryptoBench\Argon2\Argon2Experiment;
use PhpCryptoBench\Experiment\ExperimentSetup;
use PHPUnit\Framework\TestCase;

/**
 * argon2.csv's max_rss_kib is the memory one hash takes (issue 46: it was the cell process's running
 * maximum, 420.9 MiB for a 64 MiB hash), and the manifest says so (verification.memory_per_hash) only
 * when a self-test's hash took at least its Argon2 memory.
 */
final class MemoryPerHashTest extends TestCase
{
    public function testTheVerificationRecordsWhatTheMemoryColumnMeans(): void
    {
        $verification = Argon2Experiment::create(ExperimentSetup::forRepository(REPOSITORY))->verify();
        self::assertArrayHasKey('memory_per_hash', $verification, 'a real hash of 1 MiB took at least its 1 MiB');
        // The first self-test whose hash's resident growth reached its memory says it: argon2id's, unless the
        // process already held some of those pages (allocator reuse; seen once in Debian 13's stack), then the next.
        self::assertMatchesRegularExpression('/^(password_hash|sodium) argon2(id|i) self-test at m=1024 KiB: /', $verification['memory_per_hash']);
        self::assertDoesNotMatchRegularExpression('/\d+ KiB resident|took \d/', $verification['memory_per_hash'], 'no measured number: the same text on every host');
    }

    public function testACountShortOfTheHashsMemoryOrTheClisOwnProcessSaysNothing(): void
    {
        $cell = Argon2Cell::of('password_hash', 'argon2id', 1024, 1, 3);
        self::assertNull(Argon2Experiment::memoryPerHash($cell, 1000), 'every block is written: under 1024 KiB is no count of it');
        self::assertSame(Argon2Experiment::memoryPerHash($cell, 1300), Argon2Experiment::memoryPerHash($cell, 1024), 'the same text whatever was measured');
        self::assertNotNull(Argon2Experiment::memoryPerHash($cell, 1024));
        self::assertNull(Argon2Experiment::memoryPerHash(Argon2Cell::of('cli', 'argon2i', 1024, 1, 3), 30000));
    }
}
