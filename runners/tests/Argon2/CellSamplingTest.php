<?php

declare(strict_types=1);

namespace PhpCryptoBench\Tests\Argon2;

use PhpCryptoBench\Argon2\CellSampling;
use PHPUnit\Framework\TestCase;

final class CellSamplingTest extends TestCase
{
    /** @return list<array<string, string>> */
    private static function rows(string $memory, string $status, array $walls): array
    {
        return array_map(static fn (int $wall): array => ['interface' => 'sodium', 'variant' => 'argon2id', 'memory_kib' => $memory, 'threads' => '1', 'time_cost' => '1', 'status' => $status, 'wall_ns' => (string) $wall], $walls);
    }

    public function testEveryCellThatHashedIsACaseWithinTargetWhenItsCiIs(): void
    {
        $rows = [
            ...self::rows('1024', 'ok', [100, 101, 99, 100, 102, 98]),   // ±2 %: within ±3 %
            ...self::rows('2048', 'ok', [100, 150, 60, 120, 90, 110]),   // ±45 %
            ...self::rows('4096', 'ok', [100, 101, 99]),                 // 3 samples: no finite CI
            ...self::rows('8192', 'refused', [0]),                       // no hash: not a case
        ];
        $tally = CellSampling::forProfile('quick')->tally($rows);
        self::assertSame(['target' => 0.03, 'minimum_samples' => 6, 'cases' => 3, 'within_target' => 1], array_slice($tally, 0, 4));
        self::assertEquals((object) [], $tally['interleaved_by']);
    }

    public function testACellOfTheRoundsAgainstTheCliIsACaseOfItsOwnBesideTheSameGridCell(): void
    {
        $grid = self::rows('1024', 'ok', [100, 101, 99, 100, 102, 98]);
        $rounds = array_map(static fn (array $row): array => array_diff_key($row, ['status' => true]), self::rows('1024', 'ok', [100, 150, 60, 120, 90, 110]));
        $tally = CellSampling::forProfile('quick')->tally($grid, $rounds);
        self::assertSame([2, 1], [$tally['cases'], $tally['within_target']]);
    }
}
