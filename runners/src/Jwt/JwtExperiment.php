<?php

declare(strict_types=1);

namespace PhpCryptoBench\Jwt;

use PhpCryptoBench\Experiment\Experiment;
use PhpCryptoBench\Experiment\ExperimentContext;
use PhpCryptoBench\Experiment\ExperimentSetup;
use PhpCryptoBench\Experiment\MeasurementResult;
use PhpCryptoBench\Harness\BenchCase;
use PhpCryptoBench\Harness\Interleaving;
use PhpCryptoBench\Harness\Profile;
use PhpCryptoBench\Io\TableSchema;
use PhpCryptoBench\Jws\Algorithms;
use PhpCryptoBench\Jws\AttackChecks;
use PhpCryptoBench\Jws\KnownAnswers;
use PhpCryptoBench\Jws\WycheproofSignatureSuite;

/**
 * JWT token size and sign/verify time per algorithm (seed 004), through this project's own JWS
 * code: the seed's 10, 100 and 500-character payloads and 2 KiB, plus key generation per key kind.
 */
final class JwtExperiment implements Experiment
{
    public const CSV = 'jwt.csv';
    public const TOKENS_CSV = 'jwt_tokens.csv';
    public const KEYS_CSV = 'jwt_keys.csv';
    public const PAYLOAD_CHARS = [10, 100, 500, 2048];
    /** The page compares the algorithms at one operation and payload: those are sampled in rotation. */
    public const INTERLEAVED_BY = ['operation', 'payload_chars'];

    public function __construct(
        private readonly string $vectorDirectory,
        private readonly TableSchema $schema,
    ) {
    }

    public static function create(ExperimentSetup $setup): self
    {
        return new self($setup->vectorDirectory, $setup->schema);
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
        if (!extension_loaded('openssl')) {
            return 'openssl extension not loaded';
        }
        return extension_loaded('sodium') ? null : 'sodium extension not loaded (built into PHP 7.2+)';
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
            'vectors' => $vectors,
            'vectors_passed' => array_sum(array_column($vectors, 'passed')),
            'vectors_skipped' => array_sum(array_column($vectors, 'skipped')),
        ];
    }

    public function caseCount(Profile $profile): int
    {
        return count(Algorithms::NAMES) * (2 * count(self::PAYLOAD_CHARS) + 1);
    }

    public function measure(ExperimentContext $context): MeasurementResult
    {
        $profile = $context->profile;
        $context->progress->begin($this->name(), $this->caseCount($profile), $profile->estimatedSeconds($this->caseCount($profile)));
        $table = $this->schema->table(self::CSV);
        $tokens = $this->schema->table(self::TOKENS_CSV);
        $keys = $this->schema->table(self::KEYS_CSV);
        $cases = [];
        foreach (Algorithms::NAMES as $alg) {
            $scheme = JwtScheme::named($alg);
            $private = $scheme->generate();
            $keys->add(['alg' => $alg, 'key_type' => $scheme->keyType, 'key_bits' => $scheme->keyBits, 'jwk' => json_encode($scheme->publishedJwk($private), JSON_UNESCAPED_SLASHES | JSON_THROW_ON_ERROR)]);
            $cases[] = new JwtCase($scheme, JwtCase::KEYGEN, 0, $private);
            foreach (self::PAYLOAD_CHARS as $chars) {
                $sign = new JwtCase($scheme, JwtCase::SIGN, $chars, $private);
                $tokens->add(['alg' => $alg, 'payload_chars' => $chars, 'token_bytes' => strlen($sign->token()), 'token' => $sign->token()]);
                array_push($cases, $sign, new JwtCase($scheme, JwtCase::VERIFY, $chars, $private));
            }
        }
        $advance = static function (BenchCase $case) use ($context): void {
            $context->progress->advance($case->label());
        };
        $samples = $context->sampler->measureGrouped($cases, new Interleaving(self::CSV, self::INTERLEAVED_BY), $advance);
        foreach ($cases as $index => $case) {
            foreach ($samples[$index] as $sample) {
                $table->add($case->key() + ['sample' => $sample->index, 'iterations' => $sample->iterations, 'elapsed_ns' => $sample->elapsedNs, 'verified' => true]);
            }
        }
        $table->writeTo($context->outputDirectory . '/' . self::CSV);
        $tokens->writeTo($context->outputDirectory . '/' . self::TOKENS_CSV);
        $keys->writeTo($context->outputDirectory . '/' . self::KEYS_CSV);
        return new MeasurementResult([self::CSV, self::TOKENS_CSV, self::KEYS_CSV]);
    }
}
