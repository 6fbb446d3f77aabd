<?php

declare(strict_types=1);

namespace PhpCryptoBench\Tests\Pq;

use PhpCryptoBench\Experiment\ExperimentContext;
use PhpCryptoBench\Experiment\ExperimentSetup;
use PhpCryptoBench\Harness\FakeTimer;
use PhpCryptoBench\Harness\Profile;
use PhpCryptoBench\Harness\Progress;
use PhpCryptoBench\Harness\Sampler;
use PhpCryptoBench\Io\CsvTable;
use PhpCryptoBench\Io\TableSchema;
use PhpCryptoBench\Native\FixedNativeSpeed;
use PhpCryptoBench\Pq\CliKeys;
use PhpCryptoBench\Pq\PqExperiment;
use PHPUnit\Framework\TestCase;

/**
 * The experiment on a stack without ML-DSA says why, naming what lacks it; on one with it (Debian 13:
 * `make test-php STACK=debian13`), it verifies and measures into its declared tables.
 */
final class PqExperimentTest extends TestCase
{
    private string $directory;

    protected function setUp(): void
    {
        $this->directory = sys_get_temp_dir() . '/pcb-pq-' . bin2hex(random_bytes(4));
        mkdir($this->directory);
    }

    protected function tearDown(): void
    {
        array_map('unlink', glob($this->directory . '/*') ?: []);
        rmdir($this->directory);
    }

    /** An `openssl` command that prints $stdout and exits with $status, whatever it is asked. */
    private function fakeOpenssl(string $stdout, int $status): CliKeys
    {
        $path = $this->directory . '/openssl';
        file_put_contents($path, sprintf("#!/bin/sh\n[ \"$1\" = version ] && { echo 'OpenSSL 9.9.9 (fake)'; exit 0; }\nprintf '%%s' %s\necho 'Algorithm ML-DSA-44 not found' >&2\nexit %d\n", escapeshellarg($stdout), $status));
        chmod($path, 0755);
        return new CliKeys($path);
    }

    private function experiment(CliKeys $cli): PqExperiment
    {
        $setup = ExperimentSetup::forRepository(REPOSITORY);
        return new PqExperiment($setup->vectorDirectory, $setup->schema, $cli);
    }

    public function testACommandWithoutMlDsaMakesTheExperimentUnavailableWithItsVersionAndError(): void
    {
        self::assertSame(
            'ML-DSA needs OpenSSL 3.5 or later: the openssl command (OpenSSL 9.9.9 (fake)) made no ML-DSA-44 key (ML-DSA-44: expected '
            . $this->directory . '/openssl genpkey -algorithm ML-DSA-44 to succeed, it failed: exit status 1: Algorithm ML-DSA-44 not found)',
            $this->experiment($this->fakeOpenssl('', 1))->unavailableReason(),
        );
    }

    public function testAKeyPhpsLibraryCannotLoadMakesTheExperimentUnavailableNamingThatLibrary(): void
    {
        $reason = (string) $this->experiment($this->fakeOpenssl("-----BEGIN PRIVATE KEY-----\nMAA=\n-----END PRIVATE KEY-----\n", 0))->unavailableReason();
        self::assertStringStartsWith("ML-DSA needs OpenSSL 3.5 or later: PHP's OpenSSL library (", $reason);
        self::assertStringEndsWith(') cannot load the ML-DSA-44 key the openssl command (OpenSSL 9.9.9 (fake)) made', $reason);
    }

    public function testThisStackEitherHasMlDsaOrTheExperimentSaysWhichPartLacksIt(): void
    {
        $reason = MlDsaStack::missing();
        $library = (string) (preg_match('/^OpenSSL (\d+)\.(\d+)/', OPENSSL_VERSION_TEXT, $m) === 1 ? sprintf('%d.%d', $m[1], $m[2]) : '0.0');
        if (version_compare($library, '3.5', '<')) {
            self::assertNotNull($reason, 'PHP built against OpenSSL ' . $library . ' has no ML-DSA');
            self::assertStringStartsWith('ML-DSA needs OpenSSL 3.5 or later: ', $reason);
            return;
        }
        self::assertNull($reason, 'OpenSSL 3.5 and later have ML-DSA');
    }

    public function testOnAStackWithMlDsaItVerifiesThenMeasuresIntoItsDeclaredTables(): void
    {
        if (!MlDsaStack::present()) {
            return;
        }
        $experiment = $this->experiment(new CliKeys());
        $verification = $experiment->verify();
        self::assertSame(610, $verification['vectors_passed']);
        self::assertSame(21, $verification['vectors_skipped']);
        self::assertCount(15, $verification['refused'], 'five tamperings of each parameter set');
        self::assertSame(-1, $verification['observed']['details_type']);
        self::assertFalse($verification['observed']['pkey_new_makes_ml_dsa']);
        self::assertSame([], $verification['observed']['kem_functions']);

        $profile = Profile::named('quick')->forFakeClock();
        $context = new ExperimentContext($profile, new Sampler(new FakeTimer(), $profile), new Progress(fopen('php://memory', 'w')), new FixedNativeSpeed(), $this->directory, true, 2);
        $schema = TableSchema::load(REPOSITORY . '/data/schema/tables');
        $result = $experiment->measure($context);
        self::assertSame(['pq.csv', 'pq_keys.csv', 'pq_tokens.csv', 'pq_rounds.csv', 'pq_native.csv'], $result->files);
        self::assertSame([], $result->gaps);
        $keys = CsvTable::read($this->directory . '/pq_keys.csv', $schema->columns('pq_keys.csv'));
        self::assertSame(['1312', '1952', '2592'], array_slice(array_column($keys, 'public_key_bytes'), 0, 3));
        self::assertSame(['2420', '3309', '4627'], array_slice(array_column($keys, 'signature_bytes'), 0, 3));
        $tokens = CsvTable::read($this->directory . '/pq_tokens.csv', $schema->columns('pq_tokens.csv'));
        $mlDsa65 = array_values(array_filter($tokens, static fn (array $row): bool => $row['algorithm'] === 'ML-DSA-65'));
        self::assertGreaterThan(4096, min(array_map('intval', array_column($mlDsa65, 'token_bytes'))), 'no ML-DSA-65 token fits a 4 KiB cookie');
        $native = CsvTable::read($this->directory . '/pq_native.csv', $schema->columns('pq_native.csv'));
        self::assertSame(['ML-DSA-44', 'ML-DSA-65', 'ML-DSA-87', 'ML-KEM-768'], array_values(array_unique(array_column($native, 'primitive'))));
        self::assertCount(8 * 10 * 7, CsvTable::read($this->directory . '/pq.csv', $schema->columns('pq.csv')), '8 algorithms × 10 cases × 7 fake samples');
    }
}
