<?php

declare(strict_types=1);

namespace PhpCryptoBench\Aead;

use PhpCryptoBench\Environment\MissingExtension;
use PhpCryptoBench\Experiment\Experiment;
use PhpCryptoBench\Experiment\ExperimentContext;
use PhpCryptoBench\Experiment\ExperimentSetup;
use PhpCryptoBench\Experiment\MeasurementResult;
use PhpCryptoBench\Harness\BenchCase;
use PhpCryptoBench\Harness\FixedWork;
use PhpCryptoBench\Harness\Interleaving;
use PhpCryptoBench\Harness\Profile;
use PhpCryptoBench\Harness\Sample;
use PhpCryptoBench\Harness\SlowCases;
use PhpCryptoBench\Io\CsvTable;
use PhpCryptoBench\Io\TableSchema;
use PhpCryptoBench\Io\TableSet;
use PhpCryptoBench\Native\InterleavedRounds;
use PhpCryptoBench\Native\NativePrimitive;

/** AES-GCM vs AES-CCM and the other AEADs PHP offers (seed 002: "GCM is 3x faster than CCM"). */
final class AeadExperiment implements Experiment, FixedWork
{
    public const CSV = 'aead.csv';
    /** One `openssl speed` figure per cipher and size, taken apart from PHP's: written by runs before schema 8, read for them only. */
    public const NATIVE_CSV = 'native.csv';

    /**
     * 16 B, 1 KiB, 16 KiB, 512 KiB and the seed's 10 MiB. Not 1 MiB: PHP's allocator takes a string
     * over half its 2 MiB chunk as a chunk of its own, and whether it keeps that chunk between calls
     * depends on what else the process allocated; measured in this harness, 1 MiB encryptions took a
     * fresh mapping (258 page faults) per call and decryptions none. 512 KiB is the largest size that
     * always shares a chunk; from 2 MiB on every call maps its output afresh, in any PHP program.
     */
    public const PAYLOADS = [16, 1024, 16384, 524288, 10485760];
    /**
     * Tests only, and only under the fake clock: PHPCB_TEST_AEAD_MAX_BYTES=524288 keeps the payloads of at
     * most that many bytes. The fake clock still has every sample encrypted and decrypted for real; the
     * 10 MiB samples are nine tenths of such a run's CPU, and an end-to-end test reads smaller sizes.
     */
    public const TEST_MAX_BYTES_VARIABLE = 'PHPCB_TEST_AEAD_MAX_BYTES';
    public const AAD_SIZES = [0, 64];
    /**
     * The blocks PHP is set beside `openssl speed` at, per profile: 16 KiB is what the page's per-call
     * model and the fidelity goal read (and `make bench-fidelity` repeats); the quick profile takes only
     * it, so that its rounds' seconds of `openssl speed` (on any host) halve.
     */
    public const NATIVE_BLOCKS = ['quick' => [16384], 'full' => [1024, 16384]];
    /** The page compares every AEAD at one operation, payload and AAD size: those are sampled in rotation. */
    public const INTERLEAVED_BY = ['operation', 'payload_bytes', 'aad_bytes'];

    private const OPENSSL_CIPHERS = ['aes-128-gcm', 'aes-256-gcm', 'aes-128-ccm', 'aes-256-ccm', 'chacha20-poly1305'];
    private const CCM_SHORT_TAGS = [8, 12];
    private const SODIUM_CONSTRUCTIONS = ['aes256gcm', 'chacha20poly1305-ietf', 'xchacha20poly1305-ietf'];

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
        return 'aead';
    }

    public function description(): string
    {
        return 'AES-GCM vs AES-CCM, ChaCha20-Poly1305 (OpenSSL) and libsodium AEADs';
    }

    public function unavailableReason(): ?string
    {
        return MissingExtension::among(['openssl']);
    }

    /** @return list<AeadAlgorithm> every variant that is timed */
    public function algorithms(): array
    {
        $available = openssl_get_cipher_methods();
        $algorithms = [];
        foreach (self::OPENSSL_CIPHERS as $cipher) {
            if (in_array($cipher, $available, true)) {
                $algorithms[] = new OpensslAead($cipher);
            }
        }
        foreach (['aes-128-ccm', 'aes-256-ccm'] as $cipher) {
            foreach (self::CCM_SHORT_TAGS as $tagBytes) {
                if (in_array($cipher, $available, true)) {
                    $algorithms[] = new OpensslAead($cipher, 12, $tagBytes);
                }
            }
        }
        if (extension_loaded('sodium')) {
            foreach (self::SODIUM_CONSTRUCTIONS as $construction) {
                if (SodiumAead::unavailableReason($construction) === null) {
                    $algorithms[] = new SodiumAead($construction);
                }
            }
        }
        return $algorithms;
    }

    /** @return list<string> what this PHP cannot measure, with the reason */
    public function gaps(): array
    {
        $gaps = [];
        $available = openssl_get_cipher_methods();
        foreach (self::OPENSSL_CIPHERS as $cipher) {
            if (!in_array($cipher, $available, true)) {
                $gaps[] = sprintf('%s: not offered by this OpenSSL (%s)', $cipher, OPENSSL_VERSION_TEXT);
            }
        }
        foreach (self::SODIUM_CONSTRUCTIONS as $construction) {
            $reason = extension_loaded('sodium') ? SodiumAead::unavailableReason($construction) : 'sodium extension not loaded';
            if ($reason !== null) {
                $gaps[] = sprintf('sodium-%s: %s', $construction, $reason);
            }
        }
        return $gaps;
    }

    public function verify(): array
    {
        $suite = new WycheproofAeadSuite($this->vectorDirectory);
        $reports = [];
        foreach ($this->vectorPlan() as [$file, $label, $factory]) {
            $reports[] = $suite->run($file, $label, $factory)->toArray();
        }
        $tamper = new TamperCheck();
        $tamperChecks = [];
        foreach ($this->algorithms() as $aead) {
            $tamperChecks[sprintf('%s/%dB-tag', $aead->name(), $aead->tagBytes())] = $tamper->run($aead);
        }
        if (StreamComparison::available()) {
            // Timed beside one call on large payloads (StreamComparison): verified here first, as a stream.
            $tamperChecks[sprintf('%s/%dB-tag', Secretstream::NAME, Secretstream::TAG_BYTES)] = SecretstreamCheck::run();
        }
        return [
            'vectors' => $reports,
            'vectors_passed' => array_sum(array_column($reports, 'passed')),
            'vectors_skipped' => array_sum(array_column($reports, 'skipped')),
            'tamper_checks' => $tamperChecks,
            'raw_openssl_decrypt_accepts_truncated_gcm_tag' => TamperCheck::rawPhpAcceptsTruncatedGcmTag(),
            'observed' => ArticleObservations::observe(),
        ];
    }

    /** @return list<array{0: string, 1: string, 2: \Closure(int, int, int): ?AeadAlgorithm}> */
    private function vectorPlan(): array
    {
        $openssl = static fn (string $mode): \Closure => static fn (int $key, int $nonce, int $tag): AeadAlgorithm
            => new OpensslAead(sprintf('aes-%d-%s', $key, $mode), intdiv($nonce, 8), intdiv($tag, 8));
        $plan = [
            ['aes_gcm_test.json', 'openssl aes-*-gcm', $openssl('gcm')],
            ['aes_ccm_test.json', 'openssl aes-*-ccm', $openssl('ccm')],
        ];
        if (in_array('chacha20-poly1305', openssl_get_cipher_methods(), true)) {
            $plan[] = ['chacha20_poly1305_test.json', 'openssl chacha20-poly1305',
                static fn (int $key, int $nonce, int $tag): AeadAlgorithm => new OpensslAead('chacha20-poly1305', intdiv($nonce, 8), intdiv($tag, 8))];
        }
        $sodium = static fn (string $construction, ?int $onlyKeyBits = null): \Closure
            => static fn (int $key, int $nonce, int $tag): ?AeadAlgorithm
                => $onlyKeyBits !== null && $key !== $onlyKeyBits ? null : SodiumAead::withLengths($construction, intdiv($nonce, 8), intdiv($tag, 8));
        if (extension_loaded('sodium')) {
            if (SodiumAead::unavailableReason('aes256gcm') === null) {
                $plan[] = ['aes_gcm_test.json', 'sodium aes256gcm', $sodium('aes256gcm', 256)];
            }
            $plan[] = ['chacha20_poly1305_test.json', 'sodium chacha20poly1305-ietf', $sodium('chacha20poly1305-ietf')];
            $plan[] = ['xchacha20_poly1305_test.json', 'sodium xchacha20poly1305-ietf', $sodium('xchacha20poly1305-ietf')];
        }
        return $plan;
    }

    public function processEnvironment(): array
    {
        return [];
    }

    public function caseCount(Profile $profile): int
    {
        $overhead = HarnessOverhead::available() ? 2 * count(HarnessOverhead::PAYLOADS) : 0;
        return count($this->algorithms()) * count(self::PAYLOADS) * count(self::AAD_SIZES) * 2 + $overhead + StreamComparison::caseCount();
    }

    /**
     * The groups sampled in rotation, each as the makers of its cases (one per AEAD), made only when
     * its turn comes: ten AEADs on 10 MiB are a lot of memory to hold at once.
     *
     * @return iterable<array{0: int, 1: string, 2: list<\Closure(): BenchCase>}> the payload size,
     *         where the group's rows go in the CSV (after the AEAD's position), and one maker per AEAD
     */
    private function groups(bool $fakeClock): iterable
    {
        $algorithms = $this->algorithms();
        foreach (self::payloads($fakeClock, getenv(self::TEST_MAX_BYTES_VARIABLE)) as $payload) {
            foreach (self::AAD_SIZES as $aad) {
                foreach ([EncryptCase::class, DecryptCase::class] as $operation => $class) {
                    $order = sprintf('%012d %06d %d', $payload, $aad, $operation);
                    yield [$payload, $order, array_map(static fn (AeadAlgorithm $aead): \Closure => static fn (): BenchCase => new $class($aead, $payload, $aad), $algorithms)];
                }
            }
        }
    }

    /**
     * PAYLOADS as a run measures them: under the fake clock, those of at most $maxBytes
     * (TEST_MAX_BYTES_VARIABLE) where that is a whole number; on the real clock, every one.
     *
     * @return list<int>
     */
    public static function payloads(bool $fakeClock, string|false $maxBytes): array
    {
        if (!$fakeClock || $maxBytes === false || !ctype_digit($maxBytes)) {
            return self::PAYLOADS;
        }
        return array_values(array_filter(self::PAYLOADS, static fn (int $payload): bool => $payload <= (int) $maxBytes));
    }

    /**
     * The rounds against `openssl speed` (a second per cipher and size in every round, on any host),
     * and the least samples of the large payloads' cases (a 10 MiB encryption takes milliseconds, each
     * verified by a decryption of the same length), projected from one 1 MiB encryption per AEAD here.
     */
    public function fixedWorkNs(Profile $profile, bool $fakeClock): int
    {
        return $this->nativeNs($profile) + ($fakeClock ? 0 : SlowCases::extraNs($profile, $this->largePayloadOperationNs()));
    }

    /** @return list<float> one operation and its verification per case of a payload past 512 KiB, projected from 1 MiB */
    private function largePayloadOperationNs(): array
    {
        $mebibyte = random_bytes(1 << 20);
        $operations = [];
        foreach ($this->algorithms() as $aead) {
            $key = random_bytes($aead->keyBytes());
            $nonce = random_bytes($aead->nonceBytes());
            $aead->encrypt($mebibyte, $key, $nonce, ''); // the first call sets the cipher up: not what each takes
            $perMebibyte = SlowCases::time(static fn (): mixed => $aead->encrypt($mebibyte, $key, $nonce, ''));
            foreach (self::PAYLOADS as $payload) {
                if ($payload > 524_288) {
                    // Encrypt and decrypt, at each AAD size: each run verified by the other direction.
                    array_push($operations, ...array_fill(0, 2 * count(self::AAD_SIZES), 2 * $perMebibyte * $payload / (1 << 20)));
                }
            }
        }
        return $operations;
    }

    private function nativeNs(Profile $profile): int
    {
        $primitives = [];
        foreach (array_intersect(self::OPENSSL_CIPHERS, openssl_get_cipher_methods()) as $cipher) {
            foreach (self::nativeBlocks($profile) as $block) {
                $primitives[] = NativePrimitive::cipher($cipher, $block);
            }
        }
        return InterleavedRounds::forProfile($profile)->nativeNs($primitives);
    }

    /** @return list<int> NATIVE_BLOCKS of $profile (the quick profile's for any other) */
    public static function nativeBlocks(Profile $profile): array
    {
        return self::NATIVE_BLOCKS[$profile->name] ?? self::NATIVE_BLOCKS['quick'];
    }

    public function measure(ExperimentContext $context): MeasurementResult
    {
        $count = $this->caseCount($context->profile);
        $overheadAvailable = HarnessOverhead::available();
        $streamAvailable = StreamComparison::available();
        $tables = TableSet::ofExperiment($this->schema, $this->name())->without(self::NATIVE_CSV);
        $tables = $overheadAvailable ? $tables : $tables->without(HarnessOverhead::CSV);
        $tables = $streamAvailable ? $tables : $tables->without(StreamComparison::CSV);
        // The native limit of every cipher and size, in the rounds: never one figure taken apart. Their
        // `openssl speed` seconds are set aside before the cases share the experiment's time.
        $steps = FidelityRounds::steps($context->sampler, $context->profile, $context->nativeSpeed, $tables->get(FidelityRounds::CSV), $tables->get(FidelityRounds::NATIVE_CSV), self::OPENSSL_CIPHERS, self::nativeBlocks($context->profile));
        $rounds = InterleavedRounds::forProfile($context->profile);
        $rounds->reserve($context->sampler->budget(), $steps);
        $context->progress->begin($this->name(), $count, $context->profile->estimatedSeconds($count));
        $advance = static function (BenchCase $case) use ($context): void {
            $context->progress->advance($case->label());
        };
        $rows = [];
        $interleaving = new Interleaving(self::CSV, self::INTERLEAVED_BY);
        foreach ($this->groups($context->fakeClock) as [$payload, $order, $makers]) {
            // A case holds its payload, a sealed copy and the output of its last run.
            foreach ($context->sampler->measureMade($makers, 3 * $payload, $interleaving, $advance) as $position => [$case, $samples]) {
                // The CSV lists the rows as before interleaving: AEAD by AEAD, then payload, AAD, operation.
                $rows[sprintf('%03d %s', $position, $order)] = array_map(static fn (Sample $sample): array => $case->key() + $sample->columnsWithFaults(), $samples);
            }
        }
        ksort($rows, SORT_STRING);
        foreach (array_merge(...array_values($rows)) as $row) {
            $tables->get(self::CSV)->add($row);
        }
        if ($overheadAvailable) {
            HarnessOverhead::measureInto($tables->get(HarnessOverhead::CSV), $context->sampler, $advance);
        }
        if ($streamAvailable) {
            StreamComparison::measureInto($tables->get(StreamComparison::CSV), $context->sampler, $advance);
        }
        $gaps = [...$this->gaps(), ...$rounds->run($this->name(), $steps, $context->progress, $context->sampler->budget())];
        return new MeasurementResult($rounds->written($tables, FidelityRounds::NATIVE_CSV)->writeTo($context->outputDirectory), $gaps);
    }
}
