<?php

declare(strict_types=1);

namespace PhpCryptoBench\Tests\Argon2;

use PhpCryptoBench\Argon2\Argon2Cell;
use PhpCryptoBench\Argon2\CellCheckpoint;
use PhpCryptoBench\Exception\IoError;
use PhpCryptoBench\Io\TableSchema;
use PHPUnit\Framework\TestCase;

final class CellCheckpointTest extends TestCase
{
    private string $directory;
    /** @var list<string> */
    private array $columns;
    /** @var list<Argon2Cell> */
    private array $grid;

    protected function setUp(): void
    {
        $this->directory = sys_get_temp_dir() . '/pcb-checkpoint-' . bin2hex(random_bytes(4));
        mkdir($this->directory);
        $this->columns = TableSchema::load(REPOSITORY . '/data/schema/tables')->columns('argon2.csv');
        $this->grid = [Argon2Cell::of('password_hash', 'argon2id', 16384, 1, 1), Argon2Cell::of('cli', 'argon2d', 65536, 2, 3)];
    }

    protected function tearDown(): void
    {
        array_map('unlink', glob($this->directory . '/{,.}*[!.]', GLOB_BRACE) ?: []);
        rmdir($this->directory);
    }

    /** @return list<array<string, bool|int|string>> */
    private static function samples(Argon2Cell $cell, int $count): array
    {
        $rows = [];
        for ($i = 0; $i < $count; $i++) {
            $rows[] = $cell->key() + ['oversubscribed' => false, 'sample' => $i, 'wall_ns' => 1000 + $i, 'cpu_ns' => 900 + $i, 'max_rss_kib' => 20000, 'status' => 'ok', 'detail' => 'a "quoted", detail', 'verified' => true];
        }
        return $rows;
    }

    public function testARecordedCellSurvivesAndIsNotMeasuredAgain(): void
    {
        $first = CellCheckpoint::open($this->directory, $this->columns, $this->grid);
        self::assertSame(0, $first->cellsDone());
        $first->record($this->grid[0], self::samples($this->grid[0], 3));

        $reopened = CellCheckpoint::open($this->directory, $this->columns, $this->grid);
        self::assertSame(1, $reopened->cellsDone());
        self::assertTrue($reopened->has($this->grid[0]));
        self::assertFalse($reopened->has($this->grid[1]));
    }

    public function testCompletingWritesEveryRowInOrderAndRemovesTheCheckpoint(): void
    {
        $checkpoint = CellCheckpoint::open($this->directory, $this->columns, $this->grid);
        $checkpoint->record($this->grid[0], self::samples($this->grid[0], 2));
        $resumed = CellCheckpoint::open($this->directory, $this->columns, $this->grid);
        $resumed->record($this->grid[1], self::samples($this->grid[1], 1));
        $resumed->complete($this->directory . '/argon2.csv');

        self::assertFileDoesNotExist($this->directory . '/' . CellCheckpoint::FILE);
        $lines = explode("\n", trim((string) file_get_contents($this->directory . '/argon2.csv')));
        self::assertSame(implode(',', $this->columns), $lines[0]);
        self::assertCount(4, $lines);
        self::assertSame('password_hash,argon2id,16384,1,1,false,1,1001,901,20000,ok,"a ""quoted"", detail",true', $lines[2]);
        self::assertStringStartsWith('cli,argon2d,65536,2,3,false,0,', $lines[3]);
    }

    public function testACheckpointFromAnotherGridIsRefused(): void
    {
        $other = Argon2Cell::of('sodium', 'argon2id', 1048576, 1, 6);
        CellCheckpoint::open($this->directory, $this->columns, [$other])->record($other, self::samples($other, 1));

        $this->expectException(IoError::class);
        $this->expectExceptionMessage("it holds cell sodium/argon2id m=1048576 p=1 t=6, which this run's grid does not have");
        CellCheckpoint::open($this->directory, $this->columns, $this->grid);
    }

    public function testACheckpointWithOtherColumnsIsRefused(): void
    {
        file_put_contents($this->directory . '/' . CellCheckpoint::FILE, "interface,variant\npassword_hash,argon2id\n");

        $this->expectException(IoError::class);
        $this->expectExceptionMessage('expected columns [' . implode(',', $this->columns) . '], found [interface,variant]');
        CellCheckpoint::open($this->directory, $this->columns, $this->grid);
    }

    public function testATruncatedRowIsRefused(): void
    {
        file_put_contents($this->directory . '/' . CellCheckpoint::FILE, implode(',', $this->columns) . "\npassword_hash,argon2id,16384\n");

        $this->expectException(IoError::class);
        $this->expectExceptionMessage('row 2 has 3 fields, expected ' . count($this->columns));
        CellCheckpoint::open($this->directory, $this->columns, $this->grid);
    }
}
