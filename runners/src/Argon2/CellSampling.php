<?php

declare(strict_types=1);

namespace PhpCryptoBench\Argon2;

use PhpCryptoBench\Harness\MedianInterval;
use PhpCryptoBench\Harness\SamplingTally;
use PhpCryptoBench\Harness\TimeBudget;

/**
 * How many hashes a cell takes: at least $minSamples (6, the fewest with a finite 95% CI) whatever
 * its budget, then more until the CI of the median wall time is within ±TARGET of it, its next hash
 * would end past its budget or it has $maxSamples. In a run the cells share the experiment's share
 * (CellShares), never more than the ceiling each; outside one (tools, tests) they draw on a
 * TimeBudget of an allowance per cell like the Sampler's cases: quick cells leave time for noisy ones.
 */
final class CellSampling
{
    /** Argon2 cells take a second or more each: ±3 % in both profiles (the others' full profile asks ±1 %). */
    public const TARGET = 0.03;

    private function __construct(
        public readonly int $minSamples,
        public readonly int $maxSamples,
        private readonly int $allowanceNs,
        private readonly int $ceilingNs,
    ) {
    }

    public static function forProfile(string $profile): self
    {
        // Full: 2 s a cell on average (5 s before, when the grid took 43 minutes), at most 20 s.
        return $profile === 'full'
            ? new self(6, 40, 2_000_000_000, 20_000_000_000)
            : new self(6, 30, 1_200_000_000, 5_000_000_000);
    }

    public function timeBudget(): TimeBudget
    {
        return new TimeBudget($this->allowanceNs, $this->ceilingNs);
    }

    /** $budgetNs, but never more than the profile's ceiling per cell. */
    public function ceiled(int $budgetNs): int
    {
        return min($budgetNs, $this->ceilingNs);
    }

    /** What a cell should take on average: the estimate's unit. */
    public function allowanceSeconds(): float
    {
        return $this->allowanceNs / 1e9;
    }

    /**
     * The manifest's sampling record of argon2.csv's rows: every cell that hashed is a case, within
     * target when its wall times' CI is.
     *
     * @param list<array<string, string>> $rows the grid's
     * @param list<array<string, mixed>> $roundRows the rounds against the CLI: their cells count as cases of their own, as their table lists them
     * @param list<array<string, mixed>> $bcryptRows bcrypt.csv's (BcryptCosts): each cost a case
     * @return array<string, mixed>
     */
    public function tally(array $rows, array $roundRows = [], array $bcryptRows = []): array
    {
        $walls = [];
        foreach ($rows as $row) {
            if ($row['status'] === 'ok') {
                $walls['grid ' . self::cellKey($row)][] = (float) $row['wall_ns'];
            }
        }
        foreach ($roundRows as $row) {
            $walls['rounds ' . self::cellKey($row)][] = (float) $row['wall_ns'];
        }
        foreach ($bcryptRows as $row) {
            $walls['bcrypt ' . $row['cost']][] = (float) $row['wall_ns'];
        }
        $tally = new SamplingTally(self::TARGET, $this->minSamples);
        foreach ($walls as $values) {
            $tally->caseMeasured(MedianInterval::of($values)->relativeHalfWidth() <= self::TARGET);
        }
        return $tally->toManifest();
    }

    /** @param array<string, mixed> $row */
    private static function cellKey(array $row): string
    {
        return sprintf('%s/%s/%s/%s/%s', $row['interface'], $row['variant'], $row['memory_kib'], $row['threads'], $row['time_cost']);
    }
}
