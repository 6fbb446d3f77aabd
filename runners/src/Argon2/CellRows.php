<?php

declare(strict_types=1);

namespace PhpCryptoBench\Argon2;

/**
 * The argon2.csv rows of one cell: one per sample, or a single row saying why there are none (an
 * interface that refuses the parameters, a hash that failed). Each row also says whether the cell
 * asked for more threads than the run's cores (the manifest's cpu.cores): such timings measure
 * the scheduler as much as Argon2.
 */
final class CellRows
{
    /** Longer failure texts (a CLI's whole usage message) are cut: the cause is in their first lines. */
    private const DETAIL_CHARACTERS = 300;

    /**
     * @param int $cores the run's core count, as its manifest records it
     * @param string|null $refusal why the interface refuses the cell (Argon2Cell::refusal); then $result is null
     * @param array{samples: list<array{wall_ns: int, cpu_ns: int}>, verified: bool|null, status: string, detail: string, max_rss_kib: int, verified_by?: string}|null $result
     * @return list<array<string, bool|int|string>>
     */
    public static function of(Argon2Cell $cell, int $cores, ?string $refusal, ?array $result): array
    {
        $base = $cell->key() + ['oversubscribed' => $cell->threads > $cores];
        if ($result === null || $result['status'] !== 'ok') {
            return [$base + [
                'sample' => 0,
                'wall_ns' => 0,
                'cpu_ns' => 0,
                'max_rss_kib' => $result['max_rss_kib'] ?? 0,
                'status' => $result === null ? 'refused' : 'failed',
                'detail' => substr($refusal ?? (string) $result['detail'], 0, self::DETAIL_CHARACTERS),
                'verified' => false,
            ]];
        }
        $detail = self::verification($result['verified'], $result['verified_by'] ?? null);
        $rows = [];
        foreach ($result['samples'] as $index => $sample) {
            $rows[] = $base + [
                'sample' => $index,
                'wall_ns' => $sample['wall_ns'],
                'cpu_ns' => $sample['cpu_ns'],
                'max_rss_kib' => $result['max_rss_kib'],
                'status' => 'ok',
                'detail' => $detail,
                'verified' => $result['verified'] === true,
            ];
        }
        return $rows;
    }

    /** What checked the cell's hashes, and its verdict; a cell process that does not say (before issue 48) used password_verify. */
    private static function verification(?bool $verified, ?string $verifiedBy): string
    {
        if ($verifiedBy === null) {
            return $verified === null ? 'no second Argon2d implementation in PHP' : 'password_verify accepts every hash';
        }
        if ($verified === null) {
            return $verifiedBy;
        }
        return ($verified ? 'every hash accepted by ' : 'a hash rejected by ') . $verifiedBy;
    }
}
