<?php

declare(strict_types=1);

/*
 * `make bench-fidelity`: PHP's AES-256-GCM and AES-256-CCM encryption at 16 KiB against `openssl speed`,
 * in interleaved rounds (Aead\FidelityRounds), written as aead_rounds.csv and aead_native.csv into DIR:
 *   php runners/fidelity.php --out DIR [--rounds N] [--fake-clock]
 * Each round: per cipher, one `openssl speed -evp` second, then one Sampler::measure() of PHP (quick
 * profile). `python -m phpcb fidelity DIR...` reads the directories. Prints DIR; bad usage: exit 2.
 */

require __DIR__ . '/bootstrap.php';

use PhpCryptoBench\Aead\FidelityRounds;
use PhpCryptoBench\Exception\BenchException;
use PhpCryptoBench\Harness\FakeTimer;
use PhpCryptoBench\Harness\HrTimer;
use PhpCryptoBench\Harness\Profile;
use PhpCryptoBench\Harness\Progress;
use PhpCryptoBench\Harness\Sampler;
use PhpCryptoBench\Io\TableSchema;
use PhpCryptoBench\Native\FixedNativeSpeed;
use PhpCryptoBench\Native\InterleavedRounds;
use PhpCryptoBench\Native\OpensslSpeedCommand;

const DEFAULT_ROUNDS = 10;

$options = getopt('', ['out:', 'rounds:', 'fake-clock']);
$out = $options['out'] ?? null;
$rounds = (int) ($options['rounds'] ?? DEFAULT_ROUNDS);
if (!is_string($out) || $out === '' || $rounds < 2) {
    fwrite(STDERR, "usage: php runners/fidelity.php --out DIR [--rounds N (at least 2, default " . DEFAULT_ROUNDS . ")] [--fake-clock]\n");
    exit(2);
}
try {
    $fake = isset($options['fake-clock']);
    $profile = $fake ? Profile::named('quick')->forFakeClock() : Profile::named('quick');
    $schema = TableSchema::load(dirname(__DIR__) . '/data/schema/tables');
    $php = $schema->table(FidelityRounds::CSV);
    $native = $schema->table(FidelityRounds::NATIVE_CSV);
    $sampler = new Sampler($fake ? new FakeTimer() : new HrTimer(), $profile);
    $speed = $fake ? new FixedNativeSpeed() : new OpensslSpeedCommand(OpensslSpeedCommand::ROUND_SECONDS);
    $gaps = (new InterleavedRounds($rounds))->run('fidelity', FidelityRounds::steps($sampler, $profile, $speed, $php, $native), new Progress(STDERR));
    if ($gaps !== []) {
        fwrite(STDERR, 'fidelity.php: ' . implode('; ', $gaps) . "\n");
        exit(1);
    }
    if (!is_dir($out) && !mkdir($out, 0777, true) && !is_dir($out)) {
        fwrite(STDERR, "fidelity.php: cannot create $out\n");
        exit(1);
    }
    $php->writeTo($out . '/' . FidelityRounds::CSV);
    $native->writeTo($out . '/' . FidelityRounds::NATIVE_CSV);
    echo $out, "\n";
} catch (BenchException $e) {
    fwrite(STDERR, 'fidelity.php: ' . $e->getMessage() . "\n");
    exit(1);
}
