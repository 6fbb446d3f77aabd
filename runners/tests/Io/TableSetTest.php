<?php

declare(strict_types=1);

namespace PhpCryptoBench\Tests\Io;

use PhpCryptoBench\Exception\IoError;
use PhpCryptoBench\Io\TableSchema;
use PhpCryptoBench\Io\TableSet;
use PHPUnit\Framework\TestCase;

/** An experiment's tables: every one its schema file declares, opened together and written together. */
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

    private static function schema(): TableSchema
    {
        return TableSchema::load(REPOSITORY . '/data/schema/tables');
    }

    public function testEveryDeclaredTableIsWrittenUnderItsNameInTheSchemasOrder(): void
    {
        $tables = TableSet::ofExperiment(self::schema(), 'pitfalls');
        self::assertSame(['pitfalls.csv', 'pitfalls_native.csv'], $tables->writeTo($this->directory));
        $header = strtok((string) file_get_contents($this->directory . '/pitfalls.csv'), "\n");
        self::assertSame(implode(',', self::schema()->columns('pitfalls.csv')), $header);
        self::assertFileExists($this->directory . '/pitfalls_native.csv');
    }

    public function testATableLeftOutIsNeitherWrittenNorListed(): void
    {
        $tables = TableSet::ofExperiment(self::schema(), 'aead')->without('harness_overhead.csv');
        self::assertNotContains('harness_overhead.csv', $tables->writeTo($this->directory));
        self::assertFileDoesNotExist($this->directory . '/harness_overhead.csv');
        self::assertFileExists($this->directory . '/aead.csv');
    }

    public function testLeavingOutATableTheExperimentDoesNotDeclareIsRefused(): void
    {
        $this->expectException(IoError::class);
        $this->expectExceptionMessage('no table schema declares jwt.csv; expected one of: pitfalls.csv, pitfalls_native.csv');
        TableSet::ofExperiment(self::schema(), 'pitfalls')->without('jwt.csv');
    }

    public function testAnotherExperimentsTableIsRefusedNamingThisOnesTables(): void
    {
        $tables = TableSet::ofExperiment(self::schema(), 'pitfalls');
        $this->expectException(IoError::class);
        $this->expectExceptionMessage('no table schema declares jwt.csv; expected one of: pitfalls.csv, pitfalls_native.csv');
        $tables->get('jwt.csv');
    }
}
