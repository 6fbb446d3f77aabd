<?php

declare(strict_types=1);

namespace PhpCryptoBench\Tests\Argon2;

use PhpCryptoBench\Argon2\Argon2Cell;
use PhpCryptoBench\Argon2\CellRows;
use PhpCryptoBench\Io\TableSchema;
use PHPUnit\Framework\TestCase;

/** What argon2.csv says of one cell: its samples, or why it has none, against the run's core count. */
final class CellRowsTest extends TestCase
{
    /** @return array{samples: list<array{wall_ns: int, cpu_ns: int}>, hashes: list<string>, verified: bool|null, status: string, detail: string, max_rss_kib: int} */
    private static function measured(?bool $verified): array
    {
        return ['samples' => [['wall_ns' => 100, 'cpu_ns' => 200], ['wall_ns' => 110, 'cpu_ns' => 220]], 'hashes' => ['h'], 'verified' => $verified, 'status' => 'ok', 'detail' => '', 'max_rss_kib' => 4242];
    }

    public function testEachSampleIsARowWithTheSchemasColumns(): void
    {
        $rows = CellRows::of(Argon2Cell::of('password_hash', 'argon2id', 16384, 2, 3), 2, null, self::measured(true));
        self::assertSame([
            ['interface' => 'password_hash', 'variant' => 'argon2id', 'memory_kib' => 16384, 'threads' => 2, 'time_cost' => 3, 'oversubscribed' => false, 'sample' => 0, 'wall_ns' => 100, 'cpu_ns' => 200, 'max_rss_kib' => 4242, 'status' => 'ok', 'detail' => 'password_verify accepts every hash', 'verified' => true],
            ['interface' => 'password_hash', 'variant' => 'argon2id', 'memory_kib' => 16384, 'threads' => 2, 'time_cost' => 3, 'oversubscribed' => false, 'sample' => 1, 'wall_ns' => 110, 'cpu_ns' => 220, 'max_rss_kib' => 4242, 'status' => 'ok', 'detail' => 'password_verify accepts every hash', 'verified' => true],
        ], $rows);
        $columns = TableSchema::load(REPOSITORY . '/data/schema/tables')->columns('argon2.csv');
        self::assertEqualsCanonicalizing($columns, array_keys($rows[0]));
    }

    public function testMoreThreadsThanTheRunsCoresIsOversubscribed(): void
    {
        $cell = Argon2Cell::of('cli', 'argon2id', 16384, 4, 1);
        self::assertTrue(CellRows::of($cell, 2, null, self::measured(true))[0]['oversubscribed']);
        self::assertFalse(CellRows::of($cell, 4, null, self::measured(true))[0]['oversubscribed']);
    }

    public function testArgon2dIsNotClaimedVerifiedAndAFailedCheckIsNot(): void
    {
        $argon2d = CellRows::of(Argon2Cell::of('cli', 'argon2d', 16384, 1, 1), 2, null, self::measured(null))[0];
        self::assertFalse($argon2d['verified']);
        self::assertSame('no second Argon2d implementation in PHP', $argon2d['detail']);
        self::assertFalse(CellRows::of(Argon2Cell::of('cli', 'argon2i', 16384, 1, 1), 2, null, self::measured(false))[0]['verified']);
    }

    public function testTheDetailNamesWhatCheckedTheHashesAndItsVerdict(): void
    {
        $cell = Argon2Cell::of('password_hash', 'argon2id', 16384, 1, 1);
        $by = 'sodium_crypto_pwhash_str_verify (libsodium), a second implementation';
        self::assertSame("every hash accepted by $by", CellRows::of($cell, 2, null, self::measured(true) + ['verified_by' => $by])[0]['detail']);
        self::assertSame("a hash rejected by $by", CellRows::of($cell, 2, null, self::measured(false) + ['verified_by' => $by])[0]['detail']);
        $argon2d = 'not verified: nothing in PHP computes Argon2d (argon2-cffi checks it in the test suite)';
        self::assertSame($argon2d, CellRows::of(Argon2Cell::of('cli', 'argon2d', 16384, 1, 1), 2, null, self::measured(null) + ['verified_by' => $argon2d])[0]['detail']);
    }

    public function testARefusedCellIsOneRowWithTheReason(): void
    {
        $cell = Argon2Cell::of('sodium', 'argon2i', 16384, 1, 1);
        $rows = CellRows::of($cell, 2, (string) $cell->refusal('standard'), null);
        self::assertCount(1, $rows);
        self::assertSame(['sample' => 0, 'wall_ns' => 0, 'cpu_ns' => 0, 'max_rss_kib' => 0, 'status' => 'refused'], array_intersect_key($rows[0], array_flip(['sample', 'wall_ns', 'cpu_ns', 'max_rss_kib', 'status'])));
        self::assertSame('libsodium refuses Argon2i with fewer than 3 passes (crypto_pwhash_argon2i_OPSLIMIT_MIN)', $rows[0]['detail']);
    }

    public function testAFailedCellIsOneRowWithItsReasonCutTo300Characters(): void
    {
        $failed = ['samples' => [], 'hashes' => [], 'verified' => null, 'status' => 'failed', 'detail' => str_repeat('x', 400), 'max_rss_kib' => 77];
        $rows = CellRows::of(Argon2Cell::of('cli', 'argon2i', 16384, 1, 1), 2, null, $failed);
        self::assertCount(1, $rows);
        self::assertSame('failed', $rows[0]['status']);
        self::assertSame(77, $rows[0]['max_rss_kib']);
        self::assertSame(str_repeat('x', 300), $rows[0]['detail']);
        self::assertFalse($rows[0]['verified']);
    }
}
