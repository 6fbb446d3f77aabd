<?php

declare(strict_types=1);

namespace PhpCryptoBench\Tests\Native;

use PhpCryptoBench\Exception\InvalidInterleaving;
use PhpCryptoBench\Harness\BenchCase;
use PhpCryptoBench\Harness\FakeTimer;
use PhpCryptoBench\Harness\Interleaving;
use PhpCryptoBench\Harness\Profile;
use PhpCryptoBench\Harness\Progress;
use PhpCryptoBench\Harness\Sampler;
use PhpCryptoBench\Io\CsvTable;
use PhpCryptoBench\Native\InterleavedRounds;
use PhpCryptoBench\Native\SampledStep;
use PhpCryptoBench\Tests\Support\CountingCase;
use PHPUnit\Framework\TestCase;

final class SampledStepTest extends TestCase
{
    private const COLUMNS = ['algorithm', 'layer', 'round', 'sample', 'iterations', 'elapsed_ns'];

    public function testSamplesTakenInOneTurnShareTheirNumberAndNumbersRunOnAcrossRounds(): void
    {
        $profile = Profile::named('quick')->forFakeClock();
        $sampler = new Sampler(new FakeTimer(), $profile);
        $table = new CsvTable(self::COLUMNS);
        $primitive = new CountingCase(16, null, 'raw');
        $layer = new CountingCase(16, null, 'jws');
        CountingCase::$order = [];

        (new InterleavedRounds(2))->run('test', [self::step($sampler, $profile, [$primitive, $layer], $table)], new Progress(fopen('php://memory', 'w+b')));

        $rows = self::rows($table);
        $numbers = static fn (string $layer): array => array_column(array_values(array_filter($rows, static fn (array $r): bool => $r['layer'] === $layer)), 'sample');
        self::assertSame(array_map('strval', range(0, 13)), $numbers('raw'), 'two rounds of 7 samples, numbered on');
        self::assertSame($numbers('raw'), $numbers('jws'), 'a pair shares its sample number');
        self::assertSame(['0', '1'], array_values(array_unique(array_column($rows, 'round'))));
        // Rotation: every turn of the last round times both cases, one after the other.
        foreach (array_chunk(array_slice(CountingCase::$order, -14), 2) as $turn) {
            self::assertEqualsCanonicalizing(['jws', 'raw'], $turn);
        }
        self::assertSame($primitive->runs, $primitive->verifications, 'every timed run verified');
    }

    public function testTheTallyRecordsThePairingOnceAcrossRounds(): void
    {
        $profile = Profile::named('quick')->forFakeClock();
        $sampler = new Sampler(new FakeTimer(), $profile);
        $sampler->beginExperiment();
        $step = self::step($sampler, $profile, [new CountingCase(16, null, 'raw'), new CountingCase(16, null, 'jws')], new CsvTable(self::COLUMNS));

        (new InterleavedRounds(3))->run('test', [$step], new Progress(fopen('php://memory', 'w+b')));

        $manifest = $sampler->tally()->toManifest();
        self::assertSame(2, $manifest['cases'], 'a case measured in three rounds counts once');
        self::assertEquals((object) ['layers.csv' => ['payload_bytes']], $manifest['interleaved_by'], 'not ambiguous: later rounds are not recorded again');
    }

    public function testOneCaseIsNoRotation(): void
    {
        $profile = Profile::named('quick')->forFakeClock();
        $this->expectException(InvalidInterleaving::class);
        $this->expectExceptionMessage('expected at least two cases to measure in rotation, got 1');
        self::step(new Sampler(new FakeTimer(), $profile), $profile, [new CountingCase()], new CsvTable(self::COLUMNS));
    }

    /** @param list<BenchCase> $cases */
    private static function step(Sampler $sampler, Profile $profile, array $cases, CsvTable $table): SampledStep
    {
        return SampledStep::rotated($sampler, $profile, $cases, $table, new Interleaving('layers.csv', ['payload_bytes']), static fn (BenchCase $case): array => ['algorithm' => 'x', 'layer' => $case->key()['algorithm']]);
    }

    /** @return list<array<string, string>> */
    private static function rows(CsvTable $table): array
    {
        $path = tempnam(sys_get_temp_dir(), 'pcb-rotated');
        $table->writeTo($path);
        $rows = CsvTable::read($path, self::COLUMNS);
        unlink($path);
        return $rows;
    }
}
