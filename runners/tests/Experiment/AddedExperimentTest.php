<?php

declare(strict_types=1);

namespace PhpCryptoBench\Tests\Experiment;

use PhpCryptoBench\Experiment\ExperimentContext;
use PhpCryptoBench\Experiment\ExperimentRegistry;
use PhpCryptoBench\Experiment\ExperimentSetup;
use PhpCryptoBench\Harness\FakeTimer;
use PhpCryptoBench\Harness\Profile;
use PhpCryptoBench\Harness\Progress;
use PhpCryptoBench\Harness\Sampler;
use PhpCryptoBench\Io\CsvTable;
use PhpCryptoBench\Io\TableSchema;
use PhpCryptoBench\Native\FixedNativeSpeed;
use PhpCryptoBench\Tests\Support\DeclaredExperiments;
use PhpCryptoBench\Tiny\HashCase;
use PHPUnit\Framework\TestCase;

/**
 * The test-only experiment tests/fixtures/experiment-tiny/ (a namespace and a schema file, nothing
 * else) found from its own source directory, with its helper class, and measured into its CSV.
 * tests/test_adding_an_experiment.py does the same through bench.php in a copy of the repository.
 */
final class AddedExperimentTest extends TestCase
{
    private const TINY = REPOSITORY . '/tests/fixtures/experiment-tiny';

    private string $directory;

    protected function setUp(): void
    {
        $this->directory = sys_get_temp_dir() . '/pcb-tiny-' . bin2hex(random_bytes(4));
        mkdir($this->directory . '/tables', 0777, true);
        mkdir($this->directory . '/run');
        // The repository's table schemas plus the fixture's, as a checkout with tiny added would have them.
        foreach ([...glob(REPOSITORY . '/data/schema/tables/*.json'), self::TINY . '/data/schema/tables/tiny.json'] as $file) {
            symlink($file, $this->directory . '/tables/' . basename($file));
        }
        // The Table Schemas the experiments share (data/schema/shared/), beside the tables as in a checkout.
        symlink(REPOSITORY . '/data/schema/shared', $this->directory . '/shared');
    }

    protected function tearDown(): void
    {
        array_map('unlink', [...glob($this->directory . '/tables/*'), ...glob($this->directory . '/run/*'), $this->directory . '/shared']);
        rmdir($this->directory . '/tables');
        rmdir($this->directory . '/run');
        rmdir($this->directory);
    }

    public function testTinyIsFoundVerifiedAndMeasuredIntoItsDeclaredColumns(): void
    {
        $schema = TableSchema::load($this->directory . '/tables');
        $setup = new ExperimentSetup(REPOSITORY, $schema, REPOSITORY . '/vectors/wycheproof');
        $registry = ExperimentRegistry::discover($setup, REPOSITORY . '/runners/src', self::TINY . '/runners/src');
        self::assertSame(DeclaredExperiments::names('tiny'), $registry->names());

        $tiny = $registry->get('tiny');
        self::assertSame(['known_answers' => ['sha256', 'sha512']], $tiny->verify());
        $profile = Profile::named('quick')->forFakeClock();
        $context = new ExperimentContext($profile, new Sampler(new FakeTimer(), $profile), new Progress(fopen('php://memory', 'w')), new FixedNativeSpeed(), $this->directory . '/run', true, 2);
        self::assertSame(['tiny.csv'], $tiny->measure($context)->files);

        $rows = CsvTable::read($this->directory . '/run/tiny.csv', $schema->columns('tiny.csv'));
        self::assertCount(4 * 7, $rows, 'sha256 and sha512 over 64 B and 1 KiB, 7 samples each');
        $sha256Of64 = array_values(array_filter($rows, static fn (array $row): bool => $row['algorithm'] === 'sha256' && $row['payload_bytes'] === '64'));
        $model = (new FakeTimer())->nsPerIteration(new HashCase('sha256', 64));
        $elapsed = array_map('intval', array_column($sha256Of64, 'elapsed_ns'));
        sort($elapsed);
        self::assertSame($model, $elapsed[3], 'the median of the 7 fake samples is the model');
        self::assertSame(['true'], array_values(array_unique(array_column($rows, 'verified'))));
    }
}
