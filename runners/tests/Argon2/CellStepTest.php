<?php

declare(strict_types=1);

namespace PhpCryptoBench\Tests\Argon2;

use PhpCryptoBench\Argon2\Argon2Cell;
use PhpCryptoBench\Argon2\CellRunner;
use PhpCryptoBench\Argon2\CellStep;
use PhpCryptoBench\Argon2\HashCost;
use PhpCryptoBench\Io\CsvTable;
use PHPUnit\Framework\TestCase;

final class CellStepTest extends TestCase
{
    private const COLUMNS = ['interface', 'variant', 'memory_kib', 'threads', 'time_cost', 'round', 'sample', 'wall_ns', 'cpu_ns', 'verified'];

    public function testEachRoundWritesItsHashesWithSampleNumbersThatRunOn(): void
    {
        $table = new CsvTable(self::COLUMNS);
        $step = new CellStep(new CellRunner(REPOSITORY . '/runners/argon2-cell.php', true), Argon2Cell::of('sodium', 'argon2id', 1024, 1, 3), 2, $table);

        $step->measure(0);
        $step->measure(1);

        self::assertNull($step->gap());
        $path = tempnam(sys_get_temp_dir(), 'pcb-cells');
        $table->writeTo($path);
        $rows = CsvTable::read($path, self::COLUMNS);
        unlink($path);
        self::assertSame(['0', '0', '1', '1'], array_column($rows, 'round'));
        self::assertSame(['0', '1', '2', '3'], array_column($rows, 'sample'));
        self::assertSame(['true'], array_values(array_unique(array_column($rows, 'verified'))));
    }

    public function testACellThatCannotBeMeasuredIsAGapWithItsReason(): void
    {
        $table = new CsvTable(self::COLUMNS);
        $step = new CellStep(new CellRunner('/nonexistent/argon2-cell.php', true), Argon2Cell::of('sodium', 'argon2id', 1024, 1, 3), 2, $table);

        $step->measure(0);

        self::assertStringStartsWith('sodium argon2id m=1 MiB t=3 p=1: the measuring process exited with status', (string) $step->gap());
        self::assertSame(0, $table->count());
    }

    public function testItsTimeIsWhatTheHostsProbeProjectsForItsProcessAndHashes(): void
    {
        $cell = Argon2Cell::of('sodium', 'argon2id', 65_536, 1, 3);
        $cost = HashCost::of(500.0, 30_000_000, 1.0);
        $runner = new CellRunner('/nonexistent/argon2-cell.php', true);
        $step = new CellStep($runner, $cell, 2, new CsvTable(self::COLUMNS), $cost);
        self::assertSame($cost->cellNs($cell, 2), $step->fixedNs(), 'reserved in the experiment\'s share before its cells are measured');
        self::assertSame(30_000_000 + 3 * 98_304_000 * 2, $step->fixedNs(), 'its process, its untimed hash and two timed ones, each verified');
        self::assertSame((int) round($step->estimatedSeconds() * 1e9), (new CellStep($runner, $cell, 2, new CsvTable(self::COLUMNS)))->fixedNs(), 'without a probe: the fixed estimate');
    }
}
