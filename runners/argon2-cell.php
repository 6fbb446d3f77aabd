<?php

declare(strict_types=1);

/*
 * Internal: measures one Argon2 cell in this (child) process, so that peak memory belongs to it:
 *   php runners/argon2-cell.php INTERFACE VARIANT MEMORY_KIB THREADS TIME_COST SAMPLES BUDGET_MS fake|real [MAX_SAMPLES TARGET]
 * Prints one JSON object (see CellMeasurement::measure): per-sample wall and CPU nanoseconds, the
 * resident memory one hash takes in KiB (max_rss_kib: RusageClock, its peak over what was resident
 * before it, not the process's ru_maxrss, which starts at the size of the process that forked it),
 * the hashes, whether they verified (null: nothing in this PHP can check them) and what checked them
 * (verified_by: Argon2Verifiers::describeFor, a second implementation where this PHP has one).
 * With MAX_SAMPLES above SAMPLES, it goes on until the median's 95% CI is within ±TARGET (e.g. 0.03).
 * "fake" models the timings (ModelledClock, ModelledCellCost) so tests of the whole pipeline are
 * deterministic; the cell's first hash is still made and verified.
 *   php runners/argon2-cell.php --environment
 * prints this process's PHP and libraries (EnvironmentProbe::process): what the cells measure with.
 * Started by CellRunner with a stdin pipe it holds open: the cell exits when that pipe closes
 * (ParentWatch), so it does not outlive a killed runner.
 */

require __DIR__ . '/bootstrap.php';

use PhpCryptoBench\Argon2\Argon2Cell;
use PhpCryptoBench\Argon2\Argon2Hasher;
use PhpCryptoBench\Argon2\CellMeasurement;
use PhpCryptoBench\Argon2\ModelledClock;
use PhpCryptoBench\Argon2\RusageClock;
use PhpCryptoBench\Environment\EnvironmentProbe;
use PhpCryptoBench\Exception\BenchException;
use PhpCryptoBench\Run\ParentWatch;
use PhpCryptoBench\Run\TestHold;

// Checked between hashes (CellMeasurement) and before anything is written, not by SIGALRM; the
// parent-death signal (setpriv) ends a cell inside a hash.
ParentWatch::watchIfAsked(everySecond: false);
if (($argv[1] ?? '') === '--environment') {
    echo json_encode((new EnvironmentProbe())->process('argon2-cell'), JSON_UNESCAPED_SLASHES | JSON_THROW_ON_ERROR), "\n";
    exit(0);
}
try {
    $cell = Argon2Cell::of($argv[1] ?? '', $argv[2] ?? '', (int) ($argv[3] ?? 0), (int) ($argv[4] ?? 0), (int) ($argv[5] ?? 0));
} catch (BenchException $e) {
    fwrite(STDERR, $e->getMessage() . "\n");
    exit(2);
}
$samples = max(1, (int) ($argv[6] ?? 1));
// Tests only: a grid cell (not a one-sample self-test) may wait before measuring (TestHold).
if ($samples > 1) {
    TestHold::holdIfAsked(TestHold::CELL_VARIABLE, $cell->interface . '/' . $cell->variant);
}
$budgetNs = (int) ($argv[7] ?? 0) * 1_000_000;
$clock = ($argv[8] ?? 'real') === 'fake' ? new ModelledClock() : new RusageClock();
$maxSamples = (int) ($argv[9] ?? 0);
$target = (float) ($argv[10] ?? 0);
$hasher = new Argon2Hasher();
$result = (new CellMeasurement($hasher, $clock))->measure($cell, $samples, $budgetNs, $maxSamples, $target)
    + ['verified_by' => $hasher->verification($cell)];
ParentWatch::exitIfParentGone();
echo json_encode($result, JSON_UNESCAPED_SLASHES | JSON_THROW_ON_ERROR), "\n";
