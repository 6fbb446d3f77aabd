<?php

declare(strict_types=1);

namespace PhpCryptoBench\Tests\Native;

use PhpCryptoBench\Harness\FakeTimer;
use PhpCryptoBench\Harness\JitterCycle;
use PhpCryptoBench\Harness\Profile;
use PhpCryptoBench\Harness\Progress;
use PhpCryptoBench\Harness\Sampler;
use PhpCryptoBench\Io\CsvTable;
use PhpCryptoBench\Native\FixedNativeSpeed;
use PhpCryptoBench\Native\InterleavedRounds;
use PhpCryptoBench\Io\TableSchema;
use PhpCryptoBench\Io\TableSet;
use PhpCryptoBench\Native\NativePrimitive;
use PhpCryptoBench\Native\NativeSpeed;
use PhpCryptoBench\Native\NativeStep;
use PhpCryptoBench\Native\RoundStep;
use PhpCryptoBench\Native\SampledStep;
use PhpCryptoBench\Tests\Support\CountingCase;
use PHPUnit\Framework\TestCase;

final class InterleavedRoundsTest extends TestCase
{
    private const NATIVE_COLUMNS = ['primitive', 'operation', 'block_bytes', 'round', 'iterations', 'elapsed_ns', 'command', 'tool_version'];
    private const PHP_COLUMNS = ['algorithm', 'round', 'sample', 'iterations', 'elapsed_ns'];

    private static function progress(): Progress
    {
        return new Progress(fopen('php://memory', 'w+b'));
    }

    public function testEachRoundTakesEveryStepOnceInOrder(): void
    {
        $log = new \ArrayObject();
        $steps = [self::recording('native', $log), self::recording('php', $log), self::recording('jws', $log)];

        $gaps = (new InterleavedRounds(3))->run('test', $steps, self::progress());

        self::assertSame([], $gaps);
        self::assertSame(['native#0', 'php#0', 'jws#0', 'native#1', 'php#1', 'jws#1', 'native#2', 'php#2', 'jws#2'], $log->getArrayCopy());
    }

    public function testAStepThatFailsIsAGapAndIsNotTriedAgain(): void
    {
        $log = new \ArrayObject();
        $steps = [self::recording('bad', $log, 'openssl speed gave nothing'), self::recording('php', $log)];

        $gaps = (new InterleavedRounds(3))->run('test', $steps, self::progress());

        self::assertSame(['openssl speed gave nothing'], $gaps);
        self::assertSame(['bad#0', 'php#0', 'php#1', 'php#2'], $log->getArrayCopy());
    }

    public function testQuickAndFullProfilesTakeTwoAndFiveRounds(): void
    {
        self::assertSame(2, InterleavedRounds::forProfile(Profile::named('quick'))->rounds);
        self::assertSame(5, InterleavedRounds::forProfile(Profile::named('full'))->rounds);
    }

    public function testRowsCarryTheirRoundAndSampleNumbersRunOnAcrossRounds(): void
    {
        $profile = Profile::named('quick')->forFakeClock();
        $native = new CsvTable(self::NATIVE_COLUMNS);
        $php = new CsvTable(self::PHP_COLUMNS);
        $case = new CountingCase(16, null, 'aes-128-cbc');
        $steps = [
            new NativeStep(new FixedNativeSpeed(), NativePrimitive::cipher('aes-128-cbc', 16), $native),
            SampledStep::of(new Sampler(new FakeTimer(), $profile), $profile, $case, $php, static fn (): array => ['algorithm' => 'aes-128-cbc']),
        ];

        (new InterleavedRounds(2))->run('test', $steps, self::progress());

        $nativeRows = self::rows($native, self::NATIVE_COLUMNS);
        self::assertSame(['0', '1'], array_column($nativeRows, 'round'));
        self::assertSame('openssl speed -elapsed -mr -seconds 1 -evp aes-128-cbc -bytes 16', $nativeRows[0]['command']);
        $phpRows = self::rows($php, self::PHP_COLUMNS);
        self::assertCount(14, $phpRows, 'two rounds of the quick profile\'s 7 samples');
        self::assertSame(array_map('strval', range(0, 13)), array_column($phpRows, 'sample'));
        self::assertSame([...array_fill(0, 7, '0'), ...array_fill(0, 7, '1')], array_column($phpRows, 'round'));
        self::assertSame($case->runs, $case->verifications, 'every timed run in every round was verified');
    }

    public function testWithoutNativeTheRoundsLeaveOpensslSpeedOutSayItOnceAndTakeTheRest(): void
    {
        $log = new \ArrayObject();
        $native = new CsvTable(self::NATIVE_COLUMNS);
        $untouchable = new class () implements NativeSpeed {
            public function bytesPerSecond(string $algorithm, int $blockBytes): ?float
            {
                throw new \LogicException('openssl speed ran');
            }

            public function measure(NativePrimitive $primitive): array
            {
                throw new \LogicException('openssl speed ran');
            }

            public function toolVersion(): string
            {
                return 'none';
            }
        };
        $steps = [
            new NativeStep($untouchable, NativePrimitive::cipher('aes-128-cbc', 16), $native),
            self::recording('php', $log),
            new NativeStep($untouchable, NativePrimitive::publicKey('ecdsap256'), $native),
        ];
        $rounds = InterleavedRounds::forProfile(Profile::named('quick')->withoutNative());

        $gaps = $rounds->run('test', $steps, self::progress());

        self::assertFalse($rounds->native);
        self::assertSame([InterleavedRounds::NATIVE_LEFT_OUT], $gaps, 'one gap for the experiment, not one per primitive');
        self::assertSame(['php#0', 'php#1'], $log->getArrayCopy());
        self::assertSame([], self::rows($native, self::NATIVE_COLUMNS));
    }

    public function testWithoutNativeNoTimeIsSetAsideForOpensslSpeedAndItsTableIsNotWritten(): void
    {
        $table = new CsvTable(self::NATIVE_COLUMNS);
        $steps = [new NativeStep(new FixedNativeSpeed(), NativePrimitive::publicKey('ecdsap256'), $table)];
        $primitives = [NativePrimitive::publicKey('ecdsap256')];
        $with = InterleavedRounds::forProfile(Profile::named('quick'));
        $without = InterleavedRounds::forProfile(Profile::named('quick')->withoutNative());
        $schema = TableSchema::load(REPOSITORY . '/data/schema/tables');
        $tables = TableSet::ofExperiment($schema, 'jwt');

        self::assertSame(2 * 2 * 1_000_000_000, $with->fixedNs($steps), 'two rounds of sign and verify, a second each');
        self::assertSame($with->fixedNs($steps), $with->nativeNs($primitives));
        self::assertSame(0, $without->fixedNs($steps));
        self::assertSame(0, $without->nativeNs($primitives));
        self::assertSame($tables->names(), $with->written($tables, 'jwt_native.csv')->names());
        self::assertSame(array_values(array_diff($tables->names(), ['jwt_native.csv'])), $without->written($tables, 'jwt_native.csv')->names());
    }

    public function testOpensslSpeedIsProjectedByWhatItTimesNotByWhatTheRunRecords(): void
    {
        $v30 = 'OpenSSL 3.0.17 1 Jul 2025 (Library: OpenSSL 3.0.17 1 Jul 2025)';
        $v35 = 'OpenSSL 3.5.9 30 Sep 2025 (Library: OpenSSL 3.5.9 30 Sep 2025)';
        $rsa = NativePrimitive::publicKey('rsa2048');
        self::assertSame(2, $rsa->speedOperations($v30), 'sign and verify');
        self::assertSame(10, $rsa->speedOperations($v35), 'and encrypt, decrypt, its KEM and its signature key generation, sign and verify');
        self::assertSame(2, $rsa->speedOperations(FixedNativeSpeed::TOOL_VERSION), 'the fake clock projects the same on every stack');
        self::assertSame(2, NativePrimitive::publicKey('ecdsap256')->speedOperations($v35));
        self::assertSame(3, NativePrimitive::publicKey('ML-DSA-65')->speedOperations($v35), 'key generation besides the sign and verify it records');
        self::assertSame(3, NativePrimitive::publicKey('ML-KEM-768')->speedOperations($v35));
        self::assertSame(1, NativePrimitive::cipher('aes-128-gcm', 16384)->speedOperations($v35));
        // Two rounds of rsa2048 and ML-DSA-44 under OpenSSL 3.5: 26 seconds, where counting what is recorded said 8.
        $rounds = InterleavedRounds::forProfile(Profile::named('quick'));
        self::assertSame(2 * (10 + 3) * 1_000_000_000, $rounds->nativeNs([$rsa, NativePrimitive::publicKey('ML-DSA-44')], $v35));
    }

    public function testTheFakeNativeLimitIsDeterministicAndSpreadByTheJitterCycle(): void
    {
        $primitive = NativePrimitive::publicKey('ecdsap256');
        $fake = new FixedNativeSpeed();
        $model = $fake->nsPerOperation($primitive, 'sign');
        $rounds = [];
        for ($round = 0; $round < 3; $round++) {
            $rounds[] = $fake->measure($primitive);
        }

        self::assertSame(['sign', 'verify'], array_map(static fn ($m) => $m->operation, $rounds[0]));
        self::assertSame(intdiv($model, 2), $fake->nsPerOperation($primitive, 'verify'));
        $signs = array_map(static fn (array $round): int => $round[0]->elapsedNs, $rounds);
        $cycle = new JitterCycle();
        self::assertSame([$cycle->apply(1000 * $model, 0), $cycle->apply(1000 * $model, 1), $cycle->apply(1000 * $model, 2)], $signs);
        self::assertEquals($rounds[0], (new FixedNativeSpeed())->measure($primitive), 'a new fake starts the same cycle');
        self::assertSame(20 + 327, (new FixedNativeSpeed())->nsPerOperation(NativePrimitive::cipher('aes-256-gcm', 16384), 'encrypt'), '20 ns per block and 50 GB/s');
        self::assertSame(20, (new FixedNativeSpeed())->nsPerOperation(NativePrimitive::cipher('aes-128-cbc', 16), 'encrypt'));
    }

    /** @return list<array<string, string>> */
    private static function rows(CsvTable $table, array $columns): array
    {
        $path = tempnam(sys_get_temp_dir(), 'pcb-rounds');
        $table->writeTo($path);
        $rows = CsvTable::read($path, $columns);
        unlink($path);
        return $rows;
    }

    private static function recording(string $name, \ArrayObject $log, ?string $failure = null): RoundStep
    {
        return new class ($name, $log, $failure) implements RoundStep {
            private ?string $gap = null;

            public function __construct(private readonly string $name, private readonly \ArrayObject $log, private readonly ?string $failure)
            {
            }

            public function label(): string
            {
                return $this->name;
            }

            public function estimatedSeconds(): float
            {
                return 0.0;
            }

            public function measure(int $round): void
            {
                $this->log->append($this->name . '#' . $round);
                $this->gap = $this->failure;
            }

            public function gap(): ?string
            {
                return $this->gap;
            }
        };
    }
}
