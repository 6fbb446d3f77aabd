<?php

declare(strict_types=1);

namespace PhpCryptoBench\Argon2;

use PhpCryptoBench\Run\ChildPhp;

/**
 * Measures a cell in a child PHP process (runners/argon2-cell.php), so that the memory a hash takes
 * is counted apart from this process's (RusageClock) and an allocation failure kills only that child.
 * The child is this PHP with this ini state (ChildPhp) and dies with this process (ParentWatch).
 */
final class CellRunner
{
    public function __construct(
        private readonly string $cellScript,
        private readonly bool $fakeClock = false,
    ) {
    }

    /**
     * @param int $maxSamples, $target see CellMeasurement::measure()
     * @return array{samples: list<array{wall_ns: int, cpu_ns: int}>, hashes: list<string>, verified: bool|null, status: string, detail: string, max_rss_kib: int, elapsed_ns?: int, verified_by?: string}
     */
    public function measure(Argon2Cell $cell, int $samples, int $budgetMs, int $maxSamples = 0, float $target = 0.0): array
    {
        $key = $cell->key();
        $arguments = [$key['interface'], $key['variant'], (string) $key['memory_kib'], (string) $key['threads'], (string) $key['time_cost'], (string) $samples, (string) $budgetMs, $this->fakeClock ? 'fake' : 'real', (string) $maxSamples, (string) $target];
        [$status, $out, $err] = $this->run($arguments);
        if ($status === null) {
            return self::failed('could not start ' . PHP_BINARY);
        }
        $result = json_decode($out, true);
        if ($status !== 0 || !is_array($result)) {
            // A child killed for memory (or by the OOM killer) says little; its exit status is the fact.
            return self::failed(sprintf('the measuring process exited with status %d%s', $status, $err !== '' ? ': ' . $err : ''));
        }
        return $result;
    }

    /**
     * The cell processes' PHP and libraries (EnvironmentProbe::process), probed in a process started
     * as every cell is; null when it gave no answer.
     *
     * @return array<string, mixed>|null
     */
    public function environment(): ?array
    {
        [$status, $out] = $this->run(['--environment']);
        $environment = $status === 0 ? json_decode($out, true) : null;
        return is_array($environment) && isset($environment['php'], $environment['libraries']) ? $environment : null;
    }

    /**
     * @param list<string> $arguments
     * @return array{0: int|null, 1: string, 2: string} exit status (null: not started), stdout, stderr
     */
    private function run(array $arguments): array
    {
        $process = proc_open(ChildPhp::command([$this->cellScript, ...$arguments]), [0 => ['pipe', 'r'], 1 => ['pipe', 'w'], 2 => ['pipe', 'w']], $pipes, null, ChildPhp::environment());
        if (!is_resource($process)) {
            return [null, '', ''];
        }
        // stdin stays open until the cell has answered: its end of file tells the cell we are gone.
        $out = (string) stream_get_contents($pipes[1]);
        $err = trim((string) stream_get_contents($pipes[2]));
        fclose($pipes[1]);
        fclose($pipes[2]);
        fclose($pipes[0]);
        return [proc_close($process), $out, $err];
    }

    /** @return array{samples: list<array{wall_ns: int, cpu_ns: int}>, hashes: list<string>, verified: null, status: string, detail: string, max_rss_kib: int} */
    private static function failed(string $detail): array
    {
        return ['samples' => [], 'hashes' => [], 'verified' => null, 'status' => 'failed', 'detail' => $detail, 'max_rss_kib' => 0];
    }
}
