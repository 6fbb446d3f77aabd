<?php

declare(strict_types=1);

/*
 * Internal: measures one Argon2 cell in this (child) process, so that peak memory belongs to it:
 *   php runners/argon2-cell.php INTERFACE VARIANT MEMORY_KIB THREADS TIME_COST SAMPLES BUDGET_MS [fake]
 * With "fake", one hash is still made and verified but timings and memory are modelled
 * (1 µs per KiB-pass, shared by up to 2 threads), so tests of the whole pipeline are deterministic.
 * Prints one JSON object: per-sample wall and CPU nanoseconds, peak RSS (KiB) of this process (or,
 * for the CLI, of the largest argon2 process it ran), the hashes, and whether a second
 * implementation verified them (null: none exists, as for Argon2d).
 */

require __DIR__ . '/bootstrap.php';

use PhpCryptoBench\Argon2\Argon2Cell;
use PhpCryptoBench\Argon2\Argon2Hasher;
use PhpCryptoBench\Exception\BenchException;

/** @return int user + system CPU nanoseconds of this process (mode 0) or its waited-for children (mode 1) */
function cpu_ns(int $mode): int
{
    $usage = getrusage($mode);
    return (int) (($usage['ru_utime.tv_sec'] + $usage['ru_stime.tv_sec']) * 1_000_000_000 + ($usage['ru_utime.tv_usec'] + $usage['ru_stime.tv_usec']) * 1_000);
}

try {
    $cell = Argon2Cell::of($argv[1] ?? '', $argv[2] ?? '', (int) ($argv[3] ?? 0), (int) ($argv[4] ?? 0), (int) ($argv[5] ?? 0));
} catch (BenchException $e) {
    fwrite(STDERR, $e->getMessage() . "\n");
    exit(2);
}
[$samples, $budgetNs, $fake] = [max(1, (int) ($argv[6] ?? 1)), (int) ($argv[7] ?? 0) * 1_000_000, ($argv[8] ?? '') === 'fake'];
$modelledWall = intdiv($cell->memoryKib * $cell->timeCost * 1_000, min($cell->threads, 2));
$hasher = new Argon2Hasher();
$result = ['samples' => [], 'hashes' => [], 'verified' => null, 'status' => 'ok', 'detail' => ''];
$started = hrtime(true);
try {
    for ($i = 0; $i < $samples; $i++) {
        if ($fake && $i > 0) {
            // Modelled timings need no more hashes: the first one was made and verified.
            $result['samples'][] = $result['samples'][0];
            continue;
        }
        $cpu = cpu_ns(0) + cpu_ns(1);
        $t = hrtime(true);
        $hash = $hasher->hash($cell);
        $wall = hrtime(true) - $t;
        $result['samples'][] = $fake
            ? ['wall_ns' => $modelledWall, 'cpu_ns' => $modelledWall * min($cell->threads, 2)]
            : ['wall_ns' => $wall, 'cpu_ns' => cpu_ns(0) + cpu_ns(1) - $cpu];
        $result['hashes'][] = $hash;
        $verified = $hasher->verify($cell, $hash);
        $result['verified'] = $verified === null ? $result['verified'] : ($verified && ($result['verified'] ?? true));
        // Slow cells stop inside their budget, after the minimum count the caller asked for.
        if (!$fake && $budgetNs > 0 && hrtime(true) - $started > $budgetNs && $i + 1 >= min($samples, 3)) {
            break;
        }
    }
} catch (Throwable $e) {
    $result['status'] = 'failed';
    $result['detail'] = get_class($e) . ': ' . $e->getMessage();
}
// The CLI's memory is its own process's; password_hash and sodium allocate in this one.
$result['max_rss_kib'] = $fake ? $cell->memoryKib + 20_000 : getrusage($cell->interface === 'cli' ? 1 : 0)['ru_maxrss'];
echo json_encode($result, JSON_UNESCAPED_SLASHES | JSON_THROW_ON_ERROR), "\n";
