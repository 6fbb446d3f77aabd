<?php

declare(strict_types=1);

namespace PhpCryptoBench\Tests\Run;

use PhpCryptoBench\Exception\IoError;
use PhpCryptoBench\Run\RunSeal;
use PHPUnit\Framework\TestCase;
use PHPUnit\Framework\Attributes\DataProvider;

/** The seal counts CSV records as the build does (scripts/phpcb/data/seal.py; tests/test_seal.py holds the two together). */
final class RunSealTest extends TestCase
{
    private string $directory;

    protected function setUp(): void
    {
        $this->directory = sys_get_temp_dir() . '/pcb-seal-' . bin2hex(random_bytes(4));
        mkdir($this->directory);
    }

    protected function tearDown(): void
    {
        array_map('unlink', glob($this->directory . '/*') ?: []);
        rmdir($this->directory);
    }

    /** @return iterable<string, array{string, int}> */
    public static function files(): iterable
    {
        yield 'a header only' => ["a,b\n", 0];
        yield 'two rows' => ["a,b\n1,2\n3,4\n", 2];
        yield 'no final line break' => ["a,b\n1,2\n3,4", 2];
        yield 'a quoted line break stays in its record' => ["a,b\n1,\"x\ny\"\n3,4\n", 2];
        yield 'an empty file' => ['', 0];
    }

    /** @dataProvider files */
    #[DataProvider('files')]
    public function testRowsAreTheRecordsAfterTheHeader(string $text, int $rows): void
    {
        file_put_contents($this->directory . '/t.csv', $text);
        self::assertSame($rows, RunSeal::rows($this->directory . '/t.csv'));
        $seal = RunSeal::of($this->directory, ['t.csv']);
        self::assertSame(['t.csv' => ['rows' => $rows, 'sha256' => hash('sha256', $text)]], $seal);
    }

    public function testAFileTheRunListsButDoesNotHaveCannotBeSealed(): void
    {
        $this->expectException(IoError::class);
        $this->expectExceptionMessage('missing.csv');
        RunSeal::of($this->directory, ['missing.csv']);
    }
}
