<?php

declare(strict_types=1);

namespace PhpCryptoBench\Tests\Argon2;

use PhpCryptoBench\Argon2\Argon2Cell;
use PhpCryptoBench\Argon2\CellMeasurement;
use PhpCryptoBench\Argon2\ModelledCellCost;
use PhpCryptoBench\Argon2\ModelledClock;
use PhpCryptoBench\Argon2\ProcessMemory;
use PhpCryptoBench\Argon2\RusageClock;
use PhpCryptoBench\Argon2\Argon2Hasher;
use PhpCryptoBench\Exception\Argon2Failed;
use PhpCryptoBench\Harness\MedianInterval;
use PhpCryptoBench\Tests\Support\ScriptedCellClock;
use PhpCryptoBench\Tests\Support\ScriptedHasher;
use PhpCryptoBench\Tests\Support\SteppingClock;
use PHPUnit\Framework\TestCase;
use SodiumException;
use PHPUnit\Framework\Attributes\DataProvider;

/** One cell's samples: how many, checked how, and what a failure leaves. */
final class CellMeasurementTest extends TestCase
{
    private const SECOND = 1_000_000_000;

    private static function cell(string $variant = 'argon2id', int $threads = 1): Argon2Cell
    {
        return Argon2Cell::of($variant === 'argon2d' ? 'cli' : 'password_hash', $variant, 16384, $threads, 3);
    }

    public function testWithoutABudgetEverySampleIsTakenAndEveryHashKept(): void
    {
        $hasher = new ScriptedHasher();
        $result = (new CellMeasurement($hasher, new SteppingClock(self::SECOND)))->measure(self::cell(), 6, 0);
        self::assertSame('ok', $result['status']);
        self::assertCount(6, $result['samples']);
        self::assertSame(['wall_ns' => self::SECOND, 'cpu_ns' => 2 * self::SECOND], $result['samples'][5]);
        self::assertSame(['hash-1', 'hash-2', 'hash-3', 'hash-4', 'hash-5', 'hash-6'], $result['hashes'], 'hash-0 warmed the cell up, untimed');
        self::assertSame(7, $hasher->hashes);
        self::assertSame(6 * self::SECOND, $result['elapsed_ns'], 'the warm-up is not a sample');
        self::assertSame(4242, $result['max_rss_kib']);
    }

    public function testTheWarmUpHashIsVerifiedLikeTheOthers(): void
    {
        // The first verdict is the warm-up's: a wrong warm-up hash fails the cell as a wrong sample would.
        $result = (new CellMeasurement(new ScriptedHasher([false, true, true, true]), new SteppingClock(1)))->measure(self::cell(), 3, 0);
        self::assertFalse($result['verified']);
    }

    public function testASlowCellTakesItsLeastSamplesWhateverItsBudget(): void
    {
        // Before issue 48.3 a spent budget stopped a cell after 3 samples: too few for a CI of its median.
        $measure = new CellMeasurement(new ScriptedHasher(), new SteppingClock(self::SECOND));
        self::assertCount(10, $measure->measure(self::cell(), 10, (int) (2.5 * self::SECOND))['samples']);
        self::assertCount(6, $measure->measure(self::cell(), 6, 1)['samples'], 'never fewer than its least');
        self::assertCount(2, $measure->measure(self::cell(), 2, 1)['samples'], 'nor more than asked for');
    }

    public function testPastItsLeastACellTakesNoSampleThatWouldEndPastItsBudget(): void
    {
        // Too spread for ±3 % at 6, 7 or 8 samples. After 6: 650 ns, 108 a sample, so a 7th fits in 900;
        // after 7: 730 + 104 fits; after 8: 850 + 106 would not.
        $walls = [100, 150, 60, 140, 70, 130, 80, 120, 90, 110, 100, 150, 60, 140];
        $result = (new CellMeasurement(new ScriptedHasher(), new ScriptedCellClock($walls)))->measure(self::cell(), 6, 900, 40, 0.03);
        self::assertCount(8, $result['samples']);
        self::assertLessThanOrEqual(900, $result['elapsed_ns'], 'within its budget');
    }

    public function testGivenATargetACellGoesOnUntilTheCiOfItsMedianIsWithinIt(): void
    {
        // Six spread hashes, then steady ones: the CI narrows as the steady ones outnumber them.
        $walls = [100, 130, 80, 120, 90, 110, 101, 99, 100, 100];
        $result = (new CellMeasurement(new ScriptedHasher(), new ScriptedCellClock($walls)))->measure(self::cell(), 6, 0, 40, 0.03);
        $taken = array_map(static fn (array $s): float => (float) $s['wall_ns'], $result['samples']);

        self::assertGreaterThan(6, count($taken));
        self::assertLessThan(40, count($taken));
        self::assertLessThanOrEqual(0.03, MedianInterval::of($taken)->relativeHalfWidth());
        self::assertGreaterThan(0.03, MedianInterval::of(array_slice($taken, 0, -1))->relativeHalfWidth(), 'it stops at the first that is');
        self::assertSame(array_sum($result['samples'] === [] ? [] : array_map('intval', $taken)), $result['elapsed_ns'], 'the cell reports the time it took');
    }

    public function testAQuietCellStopsAtItsMinimumAndANoisyOneAtItsMaximum(): void
    {
        $quiet = (new CellMeasurement(new ScriptedHasher(), new SteppingClock(self::SECOND)))->measure(self::cell(), 6, 0, 40, 0.03);
        $noisy = (new CellMeasurement(new ScriptedHasher(), new ScriptedCellClock([50, 150, 60, 140, 70, 130, 80, 120, 90, 110, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100])))->measure(self::cell(), 6, 0, 12, 0.03);
        self::assertCount(6, $quiet['samples']);
        self::assertCount(12, $noisy['samples']);
    }

    public function testTheBudgetStillStopsACellThatSamplesToATarget(): void
    {
        // 50, then 150 per hash: past 500 after the fifth; it still takes its least (6), and no more.
        $noisy = (new CellMeasurement(new ScriptedHasher(), new ScriptedCellClock([50, 150])))->measure(self::cell(), 6, 500, 40, 0.03);
        self::assertCount(6, $noisy['samples']);
    }

    /** @return iterable<string, array{string, list<bool|null>, bool|null}> */
    public static function verdicts(): iterable
    {
        // The warm-up hash first, then the three timed ones.
        yield 'every hash verifies' => ['argon2id', [true, true, true, true], true];
        yield 'one hash fails to verify' => ['argon2id', [true, true, false, true], false];
        yield 'Argon2d: nothing can look' => ['argon2d', [null, null, null, null], null];
    }

    /**
     * @dataProvider verdicts
     * @param list<bool|null> $answers
     */
    #[DataProvider('verdicts')]
    public function testTheCellIsVerifiedOnlyIfEveryHashIs(string $variant, array $answers, ?bool $expected): void
    {
        $result = (new CellMeasurement(new ScriptedHasher($answers), new SteppingClock(1)))->measure(self::cell($variant), 3, 0);
        self::assertSame($expected, $result['verified']);
    }

    public function testAFailingHashMakesTheCellFailedWithTheReason(): void
    {
        $failure = new SodiumException('internal error');
        $result = (new CellMeasurement(new ScriptedHasher([], $failure), new SteppingClock(1)))->measure(self::cell(), 6, 0);
        self::assertSame('failed', $result['status']);
        self::assertSame('SodiumException: internal error', $result['detail']);
        self::assertSame([], $result['samples']);
        self::assertNull($result['verified']);
        self::assertSame(4242, $result['max_rss_kib']);
    }

    public function testTheCliFailureSaysWhatItExpected(): void
    {
        $result = (new CellMeasurement(new Argon2Hasher('/nonexistent/argon2'), new SteppingClock(1)))->measure(Argon2Cell::of('cli', 'argon2i', 64, 1, 1), 1, 0);
        self::assertSame('failed', $result['status']);
        self::assertStringStartsWith(Argon2Failed::class . ': ', $result['detail']);
    }

    public function testTheModelledClockHashesOnceAndTakesItsNumbersFromTheModel(): void
    {
        $hasher = new ScriptedHasher();
        $cell = self::cell('argon2id', 4);
        $cost = new ModelledCellCost();
        $result = (new CellMeasurement($hasher, new ModelledClock($cost)))->measure($cell, 6, 0);
        self::assertSame(array_map(static fn (int $i): array => ['wall_ns' => $cost->wallNs($cell, $i), 'cpu_ns' => $cost->cpuNs($cell, $i)], range(0, 5)), $result['samples']);
        self::assertSame(1, $hasher->hashes, 'one real hash per cell: the timings are modelled');
        self::assertSame(['hash-0'], $result['hashes']);
        self::assertTrue($result['verified'], 'the one real hash is verified');
        self::assertSame($cost->hashMemoryKib($cell), $result['max_rss_kib']);
    }

    public function testTheModelledBudgetCountsModelledTime(): void
    {
        // 1 GiB × 6 passes at 1 µs per KiB-pass: about 6.3 s a sample. A target no cell reaches: a 30 s
        // budget takes a fourth sample past the least 3 (25 s), not a fifth (31 s); an 8 s one none.
        $cell = Argon2Cell::of('password_hash', 'argon2id', 1024 * 1024, 1, 6);
        $measure = new CellMeasurement(new ScriptedHasher(), new ModelledClock());
        self::assertCount(4, $measure->measure($cell, 3, 30 * self::SECOND, 40, 0.0001)['samples']);
        self::assertCount(3, $measure->measure($cell, 3, 8 * self::SECOND, 40, 0.0001)['samples']);
    }

    public function testTheRusageClockMeasuresARealHashAndOnlyItsMemory(): void
    {
        // 40 MiB: above glibc's largest mmap threshold (32 MiB), so the hash maps fresh pages even in a
        // process (this one) that hashed before and kept freed memory resident.
        $cell = Argon2Cell::of('password_hash', 'argon2id', 40 * 1024, 1, 1);
        // What this process held before (and its peak then) is not the hash's: 128 MiB, resident and freed.
        $before = str_repeat('x', 128 * 1024 * 1024);
        unset($before);
        $result = (new CellMeasurement(new Argon2Hasher(), new RusageClock()))->measure($cell, 2, 0);
        self::assertSame('ok', $result['status'], $result['detail']);
        self::assertGreaterThan(0, $result['samples'][0]['wall_ns']);
        // Every block of Argon2 memory is written; this process may give back a few pages meanwhile.
        self::assertGreaterThan(39 * 1024, $result['max_rss_kib'], 'the hash\'s 40 MiB');
        self::assertLessThan(44 * 1024, $result['max_rss_kib'], 'one hash: not the 128 MiB this process held before');
        self::assertTrue($result['verified']);
    }

    public function testProcessMemoryReadsTheKernelsCountsAndNothingWhereThereAreNone(): void
    {
        $status = sys_get_temp_dir() . '/pcb-status-' . bin2hex(random_bytes(4));
        file_put_contents($status, "Name:\tphp\nVmHWM:\t  123456 kB\nVmRSS:\t   20736 kB\n");
        try {
            $memory = new ProcessMemory($status, '/nonexistent/clear_refs');
            self::assertSame(20736, $memory->residentKib());
            self::assertSame(123456, $memory->peakKib());
            self::assertFalse($memory->resetPeak());
        } finally {
            unlink($status);
        }
        $none = new ProcessMemory('/nonexistent/status');
        self::assertNull($none->residentKib());
        self::assertNull($none->peakKib());
    }
}
