<?php

declare(strict_types=1);

namespace PhpCryptoBench\Argon2;

/**
 * Measures a cell in a child PHP process (runners/argon2-cell.php), so that the peak resident
 * memory (ru_maxrss) is the cell's alone and an allocation failure kills only that child.
 */
final class CellRunner
{
    public function __construct(
        private readonly string $cellScript,
        private readonly bool $fakeClock = false,
    ) {
    }

    /** @return array{samples: list<array{wall_ns: int, cpu_ns: int}>, hashes: list<string>, verified: bool|null, status: string, detail: string, max_rss_kib: int} */
    public function measure(Argon2Cell $cell, int $samples, int $budgetMs): array
    {
        $key = $cell->key();
        $command = [PHP_BINARY, $this->cellScript, $key['interface'], $key['variant'], (string) $key['memory_kib'], (string) $key['threads'], (string) $key['time_cost'], (string) $samples, (string) $budgetMs, $this->fakeClock ? 'fake' : 'real'];
        $process = proc_open($command, [1 => ['pipe', 'w'], 2 => ['pipe', 'w']], $pipes);
        if (!is_resource($process)) {
            return self::failed('could not start ' . PHP_BINARY);
        }
        $out = (string) stream_get_contents($pipes[1]);
        $err = trim((string) stream_get_contents($pipes[2]));
        fclose($pipes[1]);
        fclose($pipes[2]);
        $status = proc_close($process);
        $result = json_decode($out, true);
        if ($status !== 0 || !is_array($result)) {
            // A child killed for memory (or by the OOM killer) says little; its exit status is the fact.
            return self::failed(sprintf('the measuring process exited with status %d%s', $status, $err !== '' ? ': ' . $err : ''));
        }
        return $result;
    }

    /** @return array{samples: list<array{wall_ns: int, cpu_ns: int}>, hashes: list<string>, verified: null, status: string, detail: string, max_rss_kib: int} */
    private static function failed(string $detail): array
    {
        return ['samples' => [], 'hashes' => [], 'verified' => null, 'status' => 'failed', 'detail' => $detail, 'max_rss_kib' => 0];
    }
}
