<?php

declare(strict_types=1);

namespace PhpCryptoBench\Tests\Io;

use PhpCryptoBench\Exception\IoError;
use PhpCryptoBench\Io\AtomicFile;
use PhpCryptoBench\Io\CsvTable;
use LogicException;
use PHPUnit\Framework\TestCase;

final class AtomicFileTest extends TestCase
{
    private string $directory;

    protected function setUp(): void
    {
        $this->directory = sys_get_temp_dir() . '/pcb-atomic-' . bin2hex(random_bytes(4));
        mkdir($this->directory);
    }

    protected function tearDown(): void
    {
        array_map('unlink', glob($this->directory . '/{,.}*[!.]', GLOB_BRACE) ?: []);
        rmdir($this->directory);
    }

    public function testWritesTheWholeFileAndLeavesNoTemporaryFile(): void
    {
        AtomicFile::write($this->directory . '/a.csv', "x,y\n1,2\n");
        self::assertSame("x,y\n1,2\n", file_get_contents($this->directory . '/a.csv'));
        self::assertSame(['a.csv'], array_values(array_diff(scandir($this->directory), ['.', '..'])));
    }

    public function testAFailedRenameLeavesNeitherATemporaryFileNorAPartialTarget(): void
    {
        // A directory in the target's place makes the final rename fail, even for root.
        mkdir($this->directory . '/a.csv');
        touch($this->directory . '/a.csv/keep');
        try {
            AtomicFile::write($this->directory . '/a.csv', 'new');
            self::fail('expected an IoError');
        } catch (IoError $e) {
            self::assertStringStartsWith('cannot write ' . $this->directory . '/a.csv: rename failed', $e->getMessage());
        } finally {
            $left = array_values(array_diff(scandir($this->directory), ['.', '..']));
            unlink($this->directory . '/a.csv/keep');
            rmdir($this->directory . '/a.csv');
        }
        self::assertSame(['a.csv'], $left, 'the temporary file was removed');
    }

    public function testAMissingParentThatCannotBeCreatedIsAnIoError(): void
    {
        $this->expectException(IoError::class);
        AtomicFile::write('/proc/pcb-no-such-dir/a.csv', 'x');
    }

    public function testCsvTableWritesHeaderRowsAndBooleansAsTrueFalse(): void
    {
        $table = new CsvTable(['name', 'ok', 'n']);
        $table->add(['n' => 3, 'name' => 'a,b', 'ok' => true]);
        $table->add(['name' => 'c', 'ok' => false, 'n' => 4]);
        self::assertSame("name,ok,n\n\"a,b\",true,3\nc,false,4\n", $table->toString());
    }

    public function testCsvTableRefusesARowWithoutTheDeclaredColumns(): void
    {
        $this->expectException(LogicException::class);
        $this->expectExceptionMessage('CSV row expected columns [name,n], missing [n], unexpected [count]');
        (new CsvTable(['name', 'n']))->add(['name' => 'a', 'count' => 1]);
    }
}
