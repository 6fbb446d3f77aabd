<?php

declare(strict_types=1);

namespace PhpCryptoBench\Argon2;

use PhpCryptoBench\Harness\MedianInterval;
use PhpCryptoBench\Run\ParentWatch;
use Throwable;

/**
 * Measures one Argon2 cell: a sample is one hash, timed by the clock and checked, untimed, by the
 * hasher (a second implementation where this PHP has one: Argon2Verifiers). After $samples samples, a cell given a $maxSamples above that and a
 * target goes on until the 95% CI of its median wall time is within ±target (MedianInterval), or
 * until its next sample would not fit in its budget (CellShares); it never takes fewer than $samples,
 * the least the statistics need, whatever its budget. A hash that
 * fails (memory it cannot allocate, parameters an implementation refuses) makes the cell `failed`,
 * with the reason: a result, not a crash. Its max_rss_kib is the memory one hash takes, as the clock
 * counts it (CellClock::hashMemoryKib).
 */
final class CellMeasurement
{
    /**
     * Hashes made (and verified) before the first timed one: a cell's first hash in its fresh process
     * maps Argon2's memory afresh and was 1.2 to 2.6 times the cell's median in the committed quick runs
     * of amd-epyc-fb7fc6 (e.g. 19.4 ms against 8.9 ms), so the first sample alone kept many cells
     * outside ±3 %.
     */
    public const WARM_UP_HASHES = 1;

    public function __construct(
        private readonly CellHasher $hasher,
        private readonly CellClock $clock,
    ) {
    }

    /**
     * @param int $samples the samples to take (the least, when $maxSamples is larger): the budget never cuts them
     * @param int $budgetNs 0 for no budget; else the cell takes no sample past its least that would end beyond it
     * @param int $maxSamples the most to take while the CI is wider than ±$target; at most $samples when not above it
     * @param float $target the CI's half-width over the median to stop at
     * @return array{samples: list<array{wall_ns: int, cpu_ns: int}>, hashes: list<string>, verified: bool|null, status: string, detail: string, max_rss_kib: int, elapsed_ns: int}
     */
    public function measure(Argon2Cell $cell, int $samples, int $budgetNs, int $maxSamples = 0, float $target = 0.0): array
    {
        $result = ['samples' => [], 'hashes' => [], 'verified' => null, 'status' => 'ok', 'detail' => ''];
        $started = $this->clock->now();
        $adaptive = $maxSamples > $samples && $target > 0.0;
        try {
            for ($warmUp = 0; $warmUp < self::WARM_UP_HASHES; $warmUp++) {
                $hash = null;
                // The hash alone inside the clock's call, its verification after: the clock counts the
                // hash's memory (CellClock::hashMemoryKib), not the verification's.
                $this->clock->warmUp($cell, function () use ($cell, &$hash): void {
                    $hash = $this->hasher->hash($cell);
                });
                if ($hash !== null) {
                    $result['verified'] = self::combine($result['verified'], $this->hasher->verify($cell, $hash));
                }
            }
            for ($index = 0; $index < ($adaptive ? $maxSamples : $samples); $index++) {
                ParentWatch::exitIfParentGone(); // a cell whose runner is gone stops between hashes
                $hash = null;
                $result['samples'][] = $this->clock->time($cell, $index, function () use ($cell, &$hash): void {
                    $hash = $this->hasher->hash($cell);
                });
                if ($hash !== null) {
                    $result['hashes'][] = $hash;
                    $result['verified'] = self::combine($result['verified'], $this->hasher->verify($cell, $hash));
                }
                if ($budgetNs > 0 && $index + 1 >= $samples && self::nextWouldOverrun($this->clock->now() - $started, $index + 1, $budgetNs)) {
                    break;
                }
                if ($adaptive && $index + 1 >= $samples && self::withinTarget($result['samples'], $target)) {
                    break;
                }
            }
        } catch (Throwable $e) {
            $result = ['samples' => [], 'hashes' => [], 'verified' => null, 'status' => 'failed', 'detail' => $e::class . ': ' . $e->getMessage()];
        }
        return $result + ['max_rss_kib' => $this->clock->hashMemoryKib($cell), 'elapsed_ns' => $this->clock->now() - $started];
    }

    /** Whether one more sample, as long as the samples so far on average, would end past the budget. */
    private static function nextWouldOverrun(int $elapsedNs, int $taken, int $budgetNs): bool
    {
        return $elapsedNs + intdiv($elapsedNs, max(1, $taken)) > $budgetNs;
    }

    /** @param list<array{wall_ns: int, cpu_ns: int}> $samples */
    private static function withinTarget(array $samples, float $target): bool
    {
        $walls = array_map(static fn (array $sample): float => (float) $sample['wall_ns'], $samples);
        return MedianInterval::of($walls)->relativeHalfWidth() <= $target;
    }

    /** True only if every hash verified; null while nothing could check them. */
    private static function combine(?bool $sofar, ?bool $latest): ?bool
    {
        if ($latest === null) {
            return $sofar;
        }
        return $latest && ($sofar ?? true);
    }
}
