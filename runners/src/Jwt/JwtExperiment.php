<?php

declare(strict_types=1);

namespace PhpCryptoBench\Jwt;

use PhpCryptoBench\Environment\MissingExtension;
use PhpCryptoBench\Experiment\ExperimentContext;
use PhpCryptoBench\Experiment\ExperimentSetup;
use PhpCryptoBench\Experiment\FollowsEarlierExperiments;
use PhpCryptoBench\Experiment\MeasurementResult;
use PhpCryptoBench\Harness\BenchCase;
use PhpCryptoBench\Harness\FixedWork;
use PhpCryptoBench\Harness\Interleaving;
use PhpCryptoBench\Harness\Profile;
use PhpCryptoBench\Harness\SlowCases;
use PhpCryptoBench\Io\CsvTable;
use PhpCryptoBench\Io\TableSchema;
use PhpCryptoBench\Io\TableSet;
use PhpCryptoBench\Jws\Algorithms;
use PhpCryptoBench\Jws\AttackChecks;
use PhpCryptoBench\Jws\CompactJws;
use PhpCryptoBench\Jws\KnownAnswers;
use PhpCryptoBench\Jws\WycheproofSignatureSuite;
use PhpCryptoBench\Native\FixedNativeSpeed;
use PhpCryptoBench\Native\InterleavedRounds;
use PhpCryptoBench\Native\NativeStep;
use PhpCryptoBench\Native\RoundStep;
use PhpCryptoBench\Native\SampledStep;

/**
 * JWT token size and sign/verify time per algorithm (seed 004), through this project's own JWS
 * code: the seed's 10, 100 and 500-character payloads and 2 KiB, plus key generation per key kind
 * where the run's curves experiment did not time it (CurvesPageKeygen: the page quotes that one).
 * Then, in interleaved rounds at 100 characters, three layers per algorithm: `openssl speed` (the
 * native limit), the raw primitive in PHP on the token's signing input, and the full JWS layer.
 */
final class JwtExperiment implements FollowsEarlierExperiments, FixedWork
{
    public const CSV = 'jwt.csv';
    public const TOKENS_CSV = 'jwt_tokens.csv';
    public const KEYS_CSV = 'jwt_keys.csv';
    public const LAYERS_CSV = 'jwt_layers.csv';
    public const NATIVE_CSV = 'jwt_native.csv';
    public const PAYLOAD_CHARS = [10, 100, 500, 2048];
    /** The layers are compared at the seed's 100-character payload. */
    public const LAYER_PAYLOAD_CHARS = 100;
    /**
     * The quick profile compares one algorithm per primitive family (each `openssl speed` figure costs
     * two seconds a round); the full profile every algorithm.
     */
    public const QUICK_LAYER_ALGORITHMS = ['ES256', 'RS256', 'PS256', 'EdDSA', 'HS256'];
    /** The page compares the algorithms at one operation and payload: those are sampled in rotation. */
    public const INTERLEAVED_BY = ['operation', 'payload_chars'];
    /** jwt_layers.csv: the raw primitive and the JWS layer of one algorithm and operation, in rotation. */
    public const LAYERS_PAIRED_BY = ['alg', 'operation'];
    public const JWS_LAYER = 'jws';

    /**
     * @param list<string> $before the experiments the run measures before this one (FollowsEarlierExperiments)
     * @param JwtKeys $keys where each algorithm's key comes from: fresh ones in a run, the suite's shared RSA key in tests
     */
    public function __construct(
        private readonly string $vectorDirectory,
        private readonly TableSchema $schema,
        private readonly array $before = [],
        private readonly JwtKeys $keys = new FreshJwtKeys(),
    ) {
    }

    public static function create(ExperimentSetup $setup): self
    {
        return new self($setup->vectorDirectory, $setup->schema);
    }

    public function after(array $names): self
    {
        return new self($this->vectorDirectory, $this->schema, $names, $this->keys);
    }

    public function name(): string
    {
        return 'jwt';
    }

    public function description(): string
    {
        return 'JWT token size, sign/verify and key generation time for ES/RS/PS/EdDSA/HS algorithms';
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
        $vectors = array_map(static fn ($report): array => $report->toArray(), (new WycheproofSignatureSuite($this->vectorDirectory))->runAll());
        return [
            'known_answers' => KnownAnswers::run(),
            'refused' => AttackChecks::run(),
            // Who pads PS256/384/512: OpenSSL, given the key's RSASSA-PSS form (runs without this
            // field encoded PSS in PHP and timed the raw RSA operation as PS's primitive).
            'pss_padding' => 'openssl',
            // How many decoded headers CompactJws keeps (runs without this field decoded every header).
            'header_cache' => CompactJws::DECODED_HEADERS,
            'vectors' => $vectors,
            'vectors_passed' => array_sum(array_column($vectors, 'passed')),
            'vectors_skipped' => array_sum(array_column($vectors, 'skipped')),
        ];
    }

    /** Sign and verify per algorithm and payload, and key generation where the curves experiment before this one does not time it. */
    public function caseCount(Profile $profile): int
    {
        return self::cases(CurvesPageKeygen::expected($this->before, $profile));
    }

    private static function cases(CurvesPageKeygen $elsewhere): int
    {
        return count(Algorithms::NAMES) * 2 * count(self::PAYLOAD_CHARS) + count(self::keygenTimedHere($elsewhere));
    }

    /** @return list<string> the algorithms whose kind of key this experiment generates in a timed case */
    public static function keygenTimedHere(CurvesPageKeygen $elsewhere): array
    {
        return array_values(array_filter(Algorithms::NAMES, static fn (string $alg): bool => !$elsewhere->covers(JwtScheme::named($alg))));
    }

    public function measure(ExperimentContext $context): MeasurementResult
    {
        $profile = $context->profile;
        $elsewhere = CurvesPageKeygen::measuredIn($context->outputDirectory, $this->schema);
        $context->progress->begin($this->name(), self::cases($elsewhere), $profile->estimatedSeconds(self::cases($elsewhere)));
        if ($elsewhere->schemes() !== []) {
            $context->progress->message(sprintf('[%s] key generation of %s: quoted from this run\'s ec_keygen, not timed again', $this->name(), implode(', ', $elsewhere->schemes())));
        }
        $timedKeygen = self::keygenTimedHere($elsewhere);
        $tables = TableSet::ofExperiment($this->schema, $this->name());
        [$table, $tokens, $keys] = [$tables->get(self::CSV), $tables->get(self::TOKENS_CSV), $tables->get(self::KEYS_CSV)];
        $privateKeys = [];
        $cases = [];
        foreach (Algorithms::NAMES as $alg) {
            $scheme = JwtScheme::named($alg);
            $private = $privateKeys[$alg] = $this->keys->privateKey($scheme);
            $keys->add(['alg' => $alg, 'key_type' => $scheme->keyType, 'key_bits' => $scheme->keyBits, 'jwk' => json_encode($scheme->publishedJwk($private), JSON_UNESCAPED_SLASHES | JSON_THROW_ON_ERROR)]);
            if (in_array($alg, $timedKeygen, true)) {
                $cases[] = new JwtCase($scheme, JwtCase::KEYGEN, 0, $private);
            }
            foreach (self::PAYLOAD_CHARS as $chars) {
                $sign = new JwtCase($scheme, JwtCase::SIGN, $chars, $private);
                $tokens->add(['alg' => $alg, 'payload_chars' => $chars, 'token_bytes' => strlen($sign->token()), 'token' => $sign->token()]);
                array_push($cases, $sign, new JwtCase($scheme, JwtCase::VERIFY, $chars, $private));
            }
        }
        $advance = static function (BenchCase $case) use ($context): void {
            $context->progress->advance($case->label());
        };
        // The layer rounds come last: their `openssl speed` seconds are set aside before the cases share the time.
        $steps = $this->layerSteps($context, $privateKeys, $tables->get(self::LAYERS_CSV), $tables->get(self::NATIVE_CSV));
        $rounds = InterleavedRounds::forProfile($profile);
        $rounds->reserve($context->sampler->budget(), $steps);
        $samples = $context->sampler->measureGrouped($cases, new Interleaving(self::CSV, self::INTERLEAVED_BY), $advance);
        foreach ($cases as $index => $case) {
            foreach ($samples[$index] as $sample) {
                $table->add($case->key() + $sample->columns() + ['verified' => true]);
            }
        }
        $gaps = $rounds->run($this->name(), $steps, $context->progress, $context->sampler->budget());
        return new MeasurementResult($rounds->written($tables, self::NATIVE_CSV)->writeTo($context->outputDirectory), $gaps);
    }

    /**
     * The layer rounds' `openssl speed` (one native primitive per algorithm family: RS and PS share
     * RSA-2048), a second per operation in every round, on any host; and the RSA key generations: one
     * key per RSA algorithm made before timing, and the least samples of each RSA keygen case timed
     * here (none when the curves experiment before this one times RSA-2048), projected from one RSA
     * key generated here (slow, and the slower the host).
     */
    public function fixedWorkNs(Profile $profile, bool $fakeClock): int
    {
        $primitives = [];
        $rsa = 0;
        $rsaKeygenCases = 0;
        $timedKeygen = self::keygenTimedHere(CurvesPageKeygen::expected($this->before, $profile));
        foreach (Algorithms::NAMES as $alg) {
            $scheme = JwtScheme::named($alg);
            $rsa += $scheme->keyType === 'RSA' ? 1 : 0;
            $rsaKeygenCases += $scheme->keyType === 'RSA' && in_array($alg, $timedKeygen, true) ? 1 : 0;
            if ($profile->name === 'full' || in_array($alg, self::QUICK_LAYER_ALGORITHMS, true)) {
                $primitive = $scheme->nativePrimitive(1);
                $primitives[$primitive->name] = $primitive;
            }
        }
        $native = InterleavedRounds::forProfile($profile)->nativeNs(array_values($primitives), $fakeClock ? FixedNativeSpeed::TOOL_VERSION : null);
        if ($fakeClock || $rsa === 0) {
            return $native;
        }
        $keygen = SlowCases::time(static fn (): mixed => JwtScheme::named('RS256')->generate());
        return $native + (int) round($rsa * $keygen) + SlowCases::extraNs($profile, array_fill(0, $rsaKeygenCases, $keygen));
    }

    /**
     * Per native primitive: `openssl speed` once, then for each algorithm on it the raw primitive and
     * the JWS layer, signing and verifying. RS and PS share one RSA-2048 measurement.
     *
     * @param array<string, mixed> $privateKeys per algorithm
     * @return list<RoundStep>
     */
    private function layerSteps(ExperimentContext $context, array $privateKeys, CsvTable $layers, CsvTable $native): array
    {
        $groups = [];
        foreach ($privateKeys as $alg => $private) {
            if ($context->profile->name !== 'full' && !in_array($alg, self::QUICK_LAYER_ALGORITHMS, true)) {
                continue;
            }
            $scheme = JwtScheme::named($alg);
            $jws = [JwtCase::SIGN => new JwtCase($scheme, JwtCase::SIGN, self::LAYER_PAYLOAD_CHARS, $private), JwtCase::VERIFY => new JwtCase($scheme, JwtCase::VERIFY, self::LAYER_PAYLOAD_CHARS, $private)];
            // Each operation's raw primitive on the key objects its JWS case uses, and the token that case verifies.
            $primitives = [];
            foreach ($jws as $operation => $case) {
                $primitives[$operation] = new PrimitiveCase($scheme, $operation, $case->signingKey(), $case->verificationKey(), $jws[JwtCase::VERIFY]->token());
            }
            $speed = $scheme->nativePrimitive(strlen($primitives[JwtCase::SIGN]->signingInput()));
            $groups[$speed->name] ??= [new NativeStep($context->nativeSpeed, $speed, $native)];
            foreach ([JwtCase::SIGN, JwtCase::VERIFY] as $operation) {
                $raw = $primitives[$operation];
                $columns = static fn (BenchCase $case): array => ['alg' => $alg, 'operation' => $operation, 'layer' => $case instanceof PrimitiveCase ? PrimitiveCase::LAYER : self::JWS_LAYER, 'native' => $speed->name, 'payload_chars' => self::LAYER_PAYLOAD_CHARS, 'verified' => true];
                // The primitive and the JWS layer in rotation: the overhead is paired sample by sample.
                $groups[$speed->name][] = SampledStep::rotated($context->sampler, $context->profile, [$raw, $jws[$operation]], $layers, new Interleaving(self::LAYERS_CSV, self::LAYERS_PAIRED_BY), $columns);
            }
        }
        return array_merge(...array_values($groups));
    }
}
