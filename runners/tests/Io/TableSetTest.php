<?php

declare(strict_types=1);

namespace PhpCryptoBench\Tests\Io;

use PhpCryptoBench\Exception\IoError;
use PhpCryptoBench\Io\TableSchema;
use PhpCryptoBench\Io\TableSet;
use PHPUnit\Framework\TestCase;

/** An experiment's tables, opened from the real schema by name and written together. */
final class TableSetTest extends TestCase
{
    private string $directory;

    protected function setUp(): void
    {
        $this->directory = sys_get_temp_dir() . '/pcb-tableset-' . bin2hex(random_bytes(4));
        mkdir($this->directory);
    }

    protected function tearDown(): void
    {
        array_map('unlink', glob($this->directory . '/*') ?: []);
        rmdir($this->directory);
    }

    public function testEachTableIsWrittenUnderItsNameAndTheNamesAreReturnedInOrder(): void
    {
        $tables = TableSet::open(TableSchema::load(REPOSITORY . '/data/schema/tables'), 'pitfalls_native.csv', 'pitfalls.csv');
        self::assertSame(['pitfalls_native.csv', 'pitfalls.csv'], $tables->writeTo($this->directory));
        $header = strtok((string) file_get_contents($this->directory . '/pitfalls.csv'), "\n");
        self::assertSame(implode(',', TableSchema::load(REPOSITORY . '/data/schema/tables')->columns('pitfalls.csv')), $header);
        self::assertFileExists($this->directory . '/pitfalls_native.csv');
    }

    public function testATableNotOpenedIsRefusedNamingTheOpenOnes(): void
    {
        $tables = TableSet::open(TableSchema::load(REPOSITORY . '/data/schema/tables'), 'pitfalls.csv');
        $this->expectException(IoError::class);
        $this->expectExceptionMessage('no table schema declares jwt.csv; expected one of: pitfalls.csv');
        $tables->get('jwt.csv');
    }
}
