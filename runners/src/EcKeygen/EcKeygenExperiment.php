<?php

declare(strict_types=1);

namespace PhpCryptoBench\EcKeygen;

use PhpCryptoBench\Environment\MissingExtension;
use PhpCryptoBench\Experiment\Experiment;
use PhpCryptoBench\Experiment\ExperimentContext;
use PhpCryptoBench\Experiment\ExperimentSetup;
use PhpCryptoBench\Experiment\MeasurementResult;
use PhpCryptoBench\Harness\BenchCase;
use PhpCryptoBench\Harness\FixedWork;
use PhpCryptoBench\Harness\Interleaving;
use PhpCryptoBench\Harness\Profile;
use PhpCryptoBench\Harness\SlowCases;
use PhpCryptoBench\Io\CsvTable;
use PhpCryptoBench\Io\TableSchema;
use PhpCryptoBench\Io\TableSet;
use PhpCryptoBench\Native\FixedNativeSpeed;
use PhpCryptoBench\Native\InterleavedRounds;
use PhpCryptoBench\Native\NativePrimitive;
use PhpCryptoBench\Native\NativeStep;
use PhpCryptoBench\Native\RoundStep;
use PhpCryptoBench\Native\SampledStep;

/**
 * Key generation on every curve OpenSSL offers (seed 003, part 1), beyond the paper: ECDSA sign
 * and verify and ECDH per curve, RSA at the same security levels, and sodium's Ed25519 and X25519.
 */
final class EcKeygenExperiment implements Experiment, FixedWork
{
    public const CSV = 'ec_keygen.csv';
    public const CURVES_CSV = 'ec_curves.csv';
    public const ROUNDS_CSV = 'ec_keygen_rounds.csv';
    public const NATIVE_CSV = 'ec_keygen_native.csv';
    /**
     * RSA-4096 only in the full profile: its keys take seconds each, and it sits at the same
     * 128-bit level as RSA-3072 (SP 800-57), so the quick profile's comparison loses nothing.
     */
    public const RSA_BITS = ['quick' => [2048, 3072], 'full' => [2048, 3072, 4096]];
    /** The paper generated 100 keys per curve; the full profile times at least as many. */
    public const FULL_PROFILE_KEYS_PER_CURVE = 100;
    /**
     * The page ranks every curve, RSA and Curve25519 at one operation (within a bracket of field
     * sizes, at one security level): all schemes of one operation are sampled in rotation.
     */
    public const INTERLEAVED_BY = ['operation'];

    public function __construct(
        private readonly string $vectorDirectory,
        private readonly TableSchema $schema,
        private readonly ExplicitParameters $parameters = new ExplicitParameters(),
    ) {
    }

    public static function create(ExperimentSetup $setup): self
    {
        return new self($setup->vectorDirectory, $setup->schema);
    }

    public function name(): string
    {
        return 'ec_keygen';
    }

    public function description(): string
    {
        return 'key generation on every OpenSSL curve, ECDSA/ECDH per curve, RSA, Ed25519 and X25519';
    }

    public function unavailableReason(): ?string
    {
        return MissingExtension::among(['openssl', 'sodium']);
    }

    public function processEnvironment(): array
    {
        return [];
    }

    public function verify(): array
    {
        $report = (new KnownAnswers($this->vectorDirectory))->run();
        $vectors = $report['vectors'];
        return [
            'known_answers' => $report['known_answers'],
            'vectors' => $vectors,
            'vectors_passed' => array_sum(array_column($vectors, 'passed')),
            'vectors_skipped' => array_sum(array_column($vectors, 'skipped')),
            'key_check' => 'every timed key signs and verifies a message (ECDH for curves that cannot sign) before its time counts',
        ];
    }

    public function caseCount(Profile $profile): int
    {
        return count(openssl_get_curve_names()) * 4 + count(self::RSA_BITS[$profile->name]) * 3 + 3 + 2;
    }

    /**
     * The rounds' `openssl speed` (NativeNames::QUICK's schemes in quick, every one it has in full), a
     * second per operation in every round, on any host: named from the schemes' names, without probing
     * the curves (those OpenSSL's speed lacks have no name, NativeNames); and the RSA key generation
     * cases' least samples.
     */
    public function fixedWorkNs(Profile $profile, bool $fakeClock): int
    {
        $names = $profile->name === 'full'
            ? [...openssl_get_curve_names(), ...array_map(static fn (int $bits): string => 'RSA-' . $bits, self::RSA_BITS[$profile->name]), 'Ed25519', 'X25519']
            : NativeNames::QUICK;
        $primitives = [];
        foreach ($names as $scheme) {
            foreach ([KeyScheme::SIGN, KeyScheme::DERIVE] as $operation) {
                $speedName = NativeNames::of($scheme, $operation);
                if ($speedName !== null) {
                    $primitives[$speedName] = NativePrimitive::publicKey($speedName);
                }
            }
        }
        $native = InterleavedRounds::forProfile($profile)->nativeNs(array_values($primitives), $fakeClock ? FixedNativeSpeed::TOOL_VERSION : null);
        if ($fakeClock) {
            return $native;
        }
        // The RSA key generations' least samples, from one 2048-bit key made here: a key of b bits
        // takes about (b / 2048)³ as long (the prime search, and each candidate's test).
        $keygen = SlowCases::time(static fn (): mixed => (new RsaScheme(2048))->generate());
        $operations = array_map(static fn (int $bits): float => $keygen * ($bits / 2048) ** 3, self::RSA_BITS[$profile->name]);
        return $native + SlowCases::extraNs($profile, $operations);
    }

    /** @return list<KeyScheme> */
    private static function comparisonSchemes(Profile $profile): array
    {
        return [...array_map(static fn (int $bits): KeyScheme => new RsaScheme($bits), self::RSA_BITS[$profile->name]), SodiumCurve25519::ed25519(), SodiumCurve25519::x25519()];
    }

    public function measure(ExperimentContext $context): MeasurementResult
    {
        $probe = new CurveProbe($this->parameters);
        $curves = array_map(static fn (string $curve): CurveEntry => $probe->probe($curve), openssl_get_curve_names());
        $schemes = [...array_values(array_filter(array_map(static fn (CurveEntry $entry): ?OpensslCurve => $entry->scheme(), $curves))), ...self::comparisonSchemes($context->profile)];
        $cases = [];
        foreach ($schemes as $scheme) {
            foreach ($scheme->operations() as $operation) {
                $cases[] = [$scheme, $operation];
            }
        }
        $profile = $context->profile;
        $context->progress->begin($this->name(), count($cases), $profile->estimatedSeconds(count($cases)));
        $keys = [];
        $built = [];
        $minimum = [];
        foreach ($cases as [$scheme, $operation]) {
            $key = $operation === KeyScheme::KEYGEN ? null : ($keys[$scheme->name()] ??= $scheme->generate());
            $built[] = new KeyOperationCase($scheme, $operation, $key);
            $minimum[] = $profile->name === 'full' && $operation === KeyScheme::KEYGEN && $scheme instanceof OpensslCurve ? self::FULL_PROFILE_KEYS_PER_CURVE : 0;
        }
        $advance = static function (BenchCase $case) use ($context): void {
            $context->progress->advance($case->label());
        };
        $tables = TableSet::ofExperiment($this->schema, $this->name());
        // The rounds against `openssl speed` come last: their seconds are set aside before the cases share the time.
        $steps = $this->nativeSteps($context, $schemes, $keys, $tables->get(self::ROUNDS_CSV), $tables->get(self::NATIVE_CSV));
        $rounds = InterleavedRounds::forProfile($profile);
        $rounds->reserve($context->sampler->budget(), $steps);
        $samples = $context->sampler->measureGrouped($built, new Interleaving(self::CSV, self::INTERLEAVED_BY), $advance, $minimum);
        $table = $tables->get(self::CSV);
        foreach ($built as $index => $case) {
            foreach ($samples[$index] as $sample) {
                $table->add($case->key() + $sample->columns() + ['verified' => true]);
            }
        }
        foreach ($curves as $entry) {
            $tables->get(self::CURVES_CSV)->add($entry->toRow());
        }
        $gaps = $rounds->run($this->name(), $steps, $context->progress, $context->sampler->budget());
        $files = $rounds->written($tables, self::NATIVE_CSV)->writeTo($context->outputDirectory);
        // A curve PHP cannot use (SM2, the Oakley curves) is a finding about PHP, recorded in
        // ec_curves.csv like the cipher inventory, not a gap in this run. A native measurement
        // that gives nothing is a gap.
        return new MeasurementResult($files, $gaps);
    }

    /**
     * Per scheme `openssl speed` has (all of them in the full profile, NativeNames::QUICK in quick):
     * its native sign/verify or derive figure, then PHP's same operations with the key timed above.
     *
     * @param list<KeyScheme> $schemes
     * @param array<string, mixed> $keys per scheme name
     * @return list<RoundStep>
     */
    private function nativeSteps(ExperimentContext $context, array $schemes, array $keys, CsvTable $rounds, CsvTable $native): array
    {
        $steps = [];
        foreach ($schemes as $scheme) {
            if ($context->profile->name !== 'full' && !in_array($scheme->name(), NativeNames::QUICK, true)) {
                continue;
            }
            $measured = [];
            foreach ($scheme->operations() as $operation) {
                $speedName = NativeNames::of($scheme->name(), $operation);
                if ($speedName === null || $operation === KeyScheme::KEYGEN) {
                    continue;
                }
                if (!isset($measured[$speedName])) {
                    $measured[$speedName] = true;
                    $steps[] = new NativeStep($context->nativeSpeed, NativePrimitive::publicKey($speedName), $native);
                }
                $case = new KeyOperationCase($scheme, $operation, $keys[$scheme->name()] ?? null);
                $columns = ['curve' => $scheme->name(), 'operation' => $operation, 'native' => $speedName, 'verified' => true];
                $steps[] = SampledStep::of($context->sampler, $context->profile, $case, $rounds, static fn (): array => $columns);
            }
        }
        return $steps;
    }
}
