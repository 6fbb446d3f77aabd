<?php

declare(strict_types=1);

namespace PhpCryptoBench\Pitfalls;

use PhpCryptoBench\Environment\MissingExtension;
use PhpCryptoBench\Experiment\Experiment;
use PhpCryptoBench\Experiment\ExperimentContext;
use PhpCryptoBench\Experiment\ExperimentSetup;
use PhpCryptoBench\Experiment\MeasurementResult;
use PhpCryptoBench\Harness\FixedWork;
use PhpCryptoBench\Harness\Profile;
use PhpCryptoBench\Io\TableSchema;
use PhpCryptoBench\Io\TableSet;
use PhpCryptoBench\Native\FixedNativeSpeed;
use PhpCryptoBench\Native\InterleavedRounds;
use PhpCryptoBench\Native\NativePrimitive;
use PhpCryptoBench\Native\NativeStep;
use PhpCryptoBench\Native\RoundStep;
use PhpCryptoBench\Native\SampledStep;

/**
 * Where PHP code loses time: one A/B per pitfall, the slow way and the fast way to the same checked
 * result, measured in interleaved rounds (slow, fast, and the native figure where `openssl speed`
 * has one), so that their ratio has a confidence interval.
 */
final class PitfallsExperiment implements Experiment, FixedWork
{
    public const CSV = 'pitfalls.csv';
    public const NATIVE_CSV = 'pitfalls_native.csv';

    /** @var list<Pitfall>|null */
    private ?array $pitfalls = null;

    public function __construct(
        private readonly string $repository,
        private readonly TableSchema $schema,
    ) {
    }

    public static function create(ExperimentSetup $setup): self
    {
        return new self($setup->repository, $setup->schema);
    }

    public function name(): string
    {
        return 'pitfalls';
    }

    public function description(): string
    {
        return 'where PHP loses time: PEM vs key objects, key details per call, PSS in PHP vs an RSASSA-PSS key, openssl.cnf per key, an AEAD call per field vs per record';
    }

    public function unavailableReason(): ?string
    {
        return MissingExtension::among(['openssl']);
    }

    public function processEnvironment(): array
    {
        return [];
    }

    /** @return list<Pitfall> the pitfalls this experiment verifies and measures, made once (three make an RSA-2048 key) */
    public function pitfalls(): array
    {
        return $this->pitfalls ??= array_values(array_filter([
            PemVersusKeyObject::rsa2048(),
            PemVersusKeyObject::p256(),
            new DetailsPerOperation(),
            new PssPaddingInPhp(),
            new KeyConfigPerCall($this->repository . '/runners/openssl-minimal.cnf'),
            new AeadCallPerField($this->repository . '/' . AeadCallPerField::SNIPPET),
        ]));
    }

    /**
     * What cannot be measured here. (password_hash against sodium at equal parameters was a pitfall
     * until issue 26: the argon2 experiment measures that quantity, once per run.)
     *
     * @return list<string>
     */
    private function gaps(): array
    {
        return [];
    }

    public function verify(): array
    {
        return ['agreement' => array_map(static fn (Pitfall $pitfall): string => $pitfall->agreement(), $this->pitfalls())];
    }

    public function caseCount(Profile $profile): int
    {
        return 2 * count($this->pitfalls());
    }

    /** The rounds' `openssl speed` for the pitfalls that have a native counterpart: a second per operation in every round. */
    public function fixedWorkNs(Profile $profile, bool $fakeClock): int
    {
        $primitives = array_values(array_filter(array_map(static fn (Pitfall $pitfall): ?NativePrimitive => $pitfall->native(), $this->pitfalls())));
        return InterleavedRounds::forProfile($profile)->nativeNs($primitives, $fakeClock ? FixedNativeSpeed::TOOL_VERSION : null);
    }

    public function measure(ExperimentContext $context): MeasurementResult
    {
        $tables = TableSet::ofExperiment($this->schema, $this->name());
        [$table, $native] = [$tables->get(self::CSV), $tables->get(self::NATIVE_CSV)];
        $steps = [];
        foreach ($this->pitfalls() as $pitfall) {
            $primitive = $pitfall->native();
            if ($primitive !== null) {
                $steps[] = new NativeStep($context->nativeSpeed, $primitive, $native);
            }
            foreach ($pitfall->variants() as $case) {
                $columns = ['pitfall' => $case->pitfall, 'variant' => $case->variant, 'units' => $case->units, 'native' => $primitive->name ?? 'none', 'verified' => true];
                $steps[] = SampledStep::of($context->sampler, $context->profile, $case, $table, static fn (): array => $columns);
            }
        }
        /** @var list<RoundStep> $steps */
        $rounds = InterleavedRounds::forProfile($context->profile);
        // Each `openssl speed` step's seconds are set aside for it until it runs: the PHP steps before it share the rest.
        $rounds->reserve($context->sampler->budget(), $steps);
        $gaps = [...$this->gaps(), ...$rounds->run($this->name(), $steps, $context->progress, $context->sampler->budget())];
        return new MeasurementResult($rounds->written($tables, self::NATIVE_CSV)->writeTo($context->outputDirectory), $gaps);
    }
}
