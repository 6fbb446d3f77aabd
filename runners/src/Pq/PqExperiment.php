<?php

declare(strict_types=1);

namespace PhpCryptoBench\Pq;

use PhpCryptoBench\Environment\MissingExtension;
use PhpCryptoBench\Environment\ModuleInfo;
use PhpCryptoBench\Exception\KeyOperationFailed;
use PhpCryptoBench\Exception\VerificationFailed;
use PhpCryptoBench\Experiment\Experiment;
use PhpCryptoBench\Experiment\ExperimentContext;
use PhpCryptoBench\Experiment\ExperimentSetup;
use PhpCryptoBench\Experiment\MeasurementResult;
use PhpCryptoBench\Harness\BenchCase;
use PhpCryptoBench\Harness\FixedWork;
use PhpCryptoBench\Harness\Interleaving;
use PhpCryptoBench\Harness\Profile;
use PhpCryptoBench\Io\CsvTable;
use PhpCryptoBench\Io\TableSchema;
use PhpCryptoBench\Io\TableSet;
use PhpCryptoBench\Jws\Base64Url;
use PhpCryptoBench\Jwt\JwtCase;
use PhpCryptoBench\Jwt\JwtExperiment;
use PhpCryptoBench\Native\FixedNativeSpeed;
use PhpCryptoBench\Native\InterleavedRounds;
use PhpCryptoBench\Native\NativePrimitive;
use PhpCryptoBench\Native\NativeStep;
use PhpCryptoBench\Native\RoundStep;
use PhpCryptoBench\Native\SampledStep;

/**
 * Post-quantum signatures from PHP: ML-DSA-44/65/87 (FIPS 204) through openssl_sign() and
 * openssl_verify(), on a stack whose OpenSSL has them (3.5 and later), beside Ed25519, P-256, P-384 and
 * RSA-2048/3072 through the same two calls. Keys are made by `openssl genpkey` at run time (PHP cannot
 * make ML-DSA keys) and never written to disk. Timed: loading each key from PEM, signing and verifying
 * the JWT experiment's payloads; the sizes of keys, signatures and compact tokens are recorded. Then,
 * in interleaved rounds, PHP's ML-DSA signing and verification against `openssl speed`, and ML-KEM's
 * key generation, encapsulation and decapsulation, which PHP has no API for, as native figures.
 * Before timing: Wycheproof's ML-DSA vectors through openssl_verify(), FIPS 204's sizes, round trips,
 * tampered signatures and tokens refused, and what PHP cannot do observed.
 */
final class PqExperiment implements Experiment, FixedWork
{
    public const CSV = 'pq.csv';
    public const KEYS_CSV = 'pq_keys.csv';
    public const TOKENS_CSV = 'pq_tokens.csv';
    public const ROUNDS_CSV = 'pq_rounds.csv';
    public const NATIVE_CSV = 'pq_native.csv';
    /** The algorithms are compared at one operation and payload: those are sampled in rotation. */
    public const INTERLEAVED_BY = ['operation', 'payload_chars'];
    /** ML-KEM's parameter sets natively; the quick profile takes the one TLS's hybrid X25519MLKEM768 uses. */
    public const ML_KEM = ['quick' => ['ML-KEM-768'], 'full' => ['ML-KEM-512', 'ML-KEM-768', 'ML-KEM-1024']];

    /** @var array<string, KeyPair>|null by scheme name, made once */
    private ?array $keys = null;
    private ?string $unavailable = null;
    private bool $probed = false;

    public function __construct(
        private readonly string $vectorDirectory,
        private readonly TableSchema $schema,
        private readonly CliKeys $cli = new CliKeys(),
    ) {
    }

    public static function create(ExperimentSetup $setup): self
    {
        return new self($setup->vectorDirectory, $setup->schema);
    }

    public function name(): string
    {
        return 'pq';
    }

    public function description(): string
    {
        return 'ML-DSA-44/65/87 signatures from PHP (OpenSSL 3.5+) beside Ed25519, P-256, P-384, RSA: key loading, sign, verify, sizes; ML-KEM natively';
    }

    /**
     * Without ML-DSA in both the `openssl` command (which makes the keys) and the OpenSSL library PHP
     * loaded, there is nothing to measure: the reason names which one lacks it.
     */
    public function unavailableReason(): ?string
    {
        if (!$this->probed) {
            $this->probed = true;
            $this->unavailable = MissingExtension::among(['openssl']) ?? $this->mlDsaMissing();
        }
        return $this->unavailable;
    }

    private function mlDsaMissing(): ?string
    {
        try {
            $pem = $this->cli->generate(PqScheme::named('ML-DSA-44'));
        } catch (KeyOperationFailed $e) {
            return sprintf('ML-DSA needs OpenSSL 3.5 or later: the openssl command (%s) made no ML-DSA-44 key (%s)', $this->cli->version(), $e->getMessage());
        }
        if (openssl_pkey_get_private($pem) === false) {
            while (openssl_error_string() !== false) {
                // emptied: the reason below says what failed
            }
            $library = ModuleInfo::value('OpenSSL Library Version') ?? OPENSSL_VERSION_TEXT;
            return sprintf("ML-DSA needs OpenSSL 3.5 or later: PHP's OpenSSL library (%s) cannot load the ML-DSA-44 key the openssl command (%s) made", $library, $this->cli->version());
        }
        return null;
    }

    public function processEnvironment(): array
    {
        return [];
    }

    public function caseCount(Profile $profile): int
    {
        return count(PqScheme::all()) * (2 + 2 * count(JwtExperiment::PAYLOAD_CHARS));
    }

    public function verify(): array
    {
        $suites = (new WycheproofMlDsaSuite($this->vectorDirectory))->runAll();
        $vectors = array_map(static fn (array $run): array => $run['report']->toArray(), $suites);
        $keys = $this->keys();
        $knownAnswers = [];
        $roundTrips = [];
        $refused = [];
        $now = time();
        foreach ($keys as $name => $pair) {
            $scheme = $pair->scheme;
            $claims = JwtCase::claims(JwtExperiment::LAYER_PAYLOAD_CHARS, $now);
            $token = CompactToken::sign($scheme, $pair->private, $claims);
            if (CompactToken::verify($scheme, $pair->public, $token) !== $claims) {
                throw VerificationFailed::knownAnswerMismatch("$name token", 'the claims signed', 'other claims');
            }
            $roundTrips[] = sprintf('%s: a token (alg %s) signed with the key the openssl command made verifies with its public key', $name, $scheme->joseAlg);
            if ($scheme->isPostQuantum()) {
                $knownAnswers[] = $this->fipsSizes($pair, $token);
                $refused = [...$refused, ...Tampering::refusals($pair, $token, $this->otherKey($scheme))];
            }
        }
        $mlKem = $this->cli->genpkey('ML-KEM-768', ['-algorithm', 'ML-KEM-768']);
        return [
            'known_answers' => $knownAnswers,
            'round_trips' => $roundTrips,
            'refused' => $refused,
            'vectors' => $vectors,
            'vectors_passed' => array_sum(array_column($vectors, 'passed')),
            'vectors_skipped' => array_sum(array_column($vectors, 'skipped')),
            'vector_outcomes' => array_combine(array_column($vectors, 'source'), array_column($suites, 'outcomes')),
            'observed' => PhpLimits::observe($keys['ML-DSA-65'], $mlKem),
        ];
    }

    /** FIPS 204's public key and signature sizes, checked on this key and a token's signature. */
    private function fipsSizes(KeyPair $pair, string $token): string
    {
        $scheme = $pair->scheme;
        $signature = Base64Url::decode(explode('.', $token)[2]);
        foreach (['public key' => [$scheme->expectedPublicKeyBytes(), strlen($pair->publicKeyBytes)], 'signature' => [$scheme->expectedSignatureBytes(), strlen($signature)]] as $what => [$expected, $actual]) {
            if ($expected !== $actual) {
                throw VerificationFailed::knownAnswerMismatch("FIPS 204 $scheme->name $what", "$expected bytes", "$actual bytes");
            }
        }
        return sprintf('FIPS 204: %s public key %d bytes, signature %d bytes', $scheme->name, $scheme->expectedPublicKeyBytes(), $scheme->expectedSignatureBytes());
    }

    private function otherKey(PqScheme $scheme): KeyPair
    {
        return KeyPair::fromPem($scheme, $this->cli->generate($scheme));
    }

    /** @return array<string, KeyPair> one key per scheme, made by the CLI once */
    private function keys(): array
    {
        if ($this->keys === null) {
            $this->keys = [];
            foreach (PqScheme::all() as $scheme) {
                $this->keys[$scheme->name] = KeyPair::fromPem($scheme, $this->cli->generate($scheme));
            }
        }
        return $this->keys;
    }

    public function measure(ExperimentContext $context): MeasurementResult
    {
        $profile = $context->profile;
        $context->progress->begin($this->name(), $this->caseCount($profile), $profile->estimatedSeconds($this->caseCount($profile)));
        $tables = TableSet::ofExperiment($this->schema, $this->name());
        $now = time();
        $cases = [];
        foreach ($this->keys() as $name => $pair) {
            $this->describe($pair, $now, $tables->get(self::KEYS_CSV), $tables->get(self::TOKENS_CSV));
            $cases[] = new LoadCase($pair, LoadCase::PRIVATE);
            $cases[] = new LoadCase($pair, LoadCase::PUBLIC);
            foreach (JwtExperiment::PAYLOAD_CHARS as $chars) {
                $cases[] = new SignCase($pair, SignCase::SIGN, $chars, $now);
                $cases[] = new SignCase($pair, SignCase::VERIFY, $chars, $now);
            }
        }
        $advance = static function (BenchCase $case) use ($context): void {
            $context->progress->advance($case->label());
        };
        $table = $tables->get(self::CSV);
        // The rounds against `openssl speed` come last: their seconds are set aside before the cases share the time.
        $steps = $this->roundSteps($context, $now, $tables->get(self::ROUNDS_CSV), $tables->get(self::NATIVE_CSV));
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

    /** The rounds' `openssl speed`: each ML-DSA parameter set and ML-KEM, a second per operation in every round, on any host. */
    public function fixedWorkNs(Profile $profile, bool $fakeClock): int
    {
        $names = [...PqScheme::ML_DSA, ...(self::ML_KEM[$profile->name] ?? self::ML_KEM['quick'])];
        return InterleavedRounds::forProfile($profile)->nativeNs(array_map(static fn (string $name): NativePrimitive => NativePrimitive::publicKey($name), $names), $fakeClock ? FixedNativeSpeed::TOOL_VERSION : null);
    }

    /** The key's sizes and public JWK, and one token per payload, for the page and as evidence. */
    private function describe(KeyPair $pair, int $now, CsvTable $keys, CsvTable $tokens): void
    {
        $scheme = $pair->scheme;
        $signatureBytes = 0;
        foreach (JwtExperiment::PAYLOAD_CHARS as $chars) {
            $token = CompactToken::sign($scheme, $pair->private, JwtCase::claims($chars, $now));
            $signatureBytes = strlen(Base64Url::decode(explode('.', $token)[2]));
            $tokens->add(['algorithm' => $scheme->name, 'jose_alg' => $scheme->joseAlg, 'payload_chars' => $chars, 'token_bytes' => strlen($token), 'token' => $token]);
        }
        $jwk = json_encode($pair->publicJwk(), JSON_UNESCAPED_SLASHES | JSON_THROW_ON_ERROR);
        $keys->add([
            'algorithm' => $scheme->name,
            'family' => $scheme->family,
            'jose_alg' => $scheme->joseAlg,
            'security_bits' => $scheme->securityBits(),
            'nist_category' => $scheme->category() ?? '',
            'public_key_bytes' => strlen($pair->publicKeyBytes),
            'spki_bytes' => strlen($pair->spki),
            'private_pem_bytes' => strlen($pair->privatePem),
            'signature_bytes' => $signatureBytes,
            'jwk_bytes' => strlen($jwk),
            'spki_base64' => base64_encode($pair->spki),
        ]);
    }

    /**
     * Per ML-DSA parameter set: `openssl speed` once, then PHP's signing and verification at the JWT
     * experiment's layer payload; then ML-KEM natively.
     *
     * @return list<RoundStep>
     */
    private function roundSteps(ExperimentContext $context, int $now, CsvTable $rounds, CsvTable $native): array
    {
        $steps = [];
        foreach (PqScheme::ML_DSA as $name) {
            $pair = $this->keys()[$name];
            $steps[] = new NativeStep($context->nativeSpeed, NativePrimitive::publicKey($name), $native);
            foreach ([SignCase::SIGN, SignCase::VERIFY] as $operation) {
                $case = new SignCase($pair, $operation, JwtExperiment::LAYER_PAYLOAD_CHARS, $now);
                $columns = ['algorithm' => $name, 'operation' => $operation, 'native' => $name, 'payload_chars' => JwtExperiment::LAYER_PAYLOAD_CHARS, 'verified' => true];
                $steps[] = SampledStep::of($context->sampler, $context->profile, $case, $rounds, static fn (): array => $columns);
            }
        }
        foreach (self::ML_KEM[$context->profile->name] ?? self::ML_KEM['quick'] as $kem) {
            $steps[] = new NativeStep($context->nativeSpeed, NativePrimitive::publicKey($kem), $native);
        }
        return $steps;
    }
}
