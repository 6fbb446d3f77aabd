<?php

declare(strict_types=1);

namespace PhpCryptoBench\Symmetric;

use PhpCryptoBench\Environment\MissingExtension;
use PhpCryptoBench\Exception\BenchException;
use PhpCryptoBench\Exception\InvalidPadding;
use PhpCryptoBench\Exception\VerificationFailed;
use PhpCryptoBench\Experiment\Experiment;
use PhpCryptoBench\Experiment\ExperimentContext;
use PhpCryptoBench\Experiment\ExperimentSetup;
use PhpCryptoBench\Experiment\MeasurementResult;
use PhpCryptoBench\Harness\BenchCase;
use PhpCryptoBench\Harness\FixedWork;
use PhpCryptoBench\Harness\Interleaving;
use PhpCryptoBench\Harness\Profile;
use PhpCryptoBench\Harness\SlowCases;
use PhpCryptoBench\Harness\Sample;
use PhpCryptoBench\Io\CsvTable;
use PhpCryptoBench\Io\TableSchema;
use PhpCryptoBench\Io\TableSet;
use PhpCryptoBench\Native\InterleavedRounds;
use PhpCryptoBench\Native\NativePrimitive;
use PhpCryptoBench\Native\NativeStep;
use PhpCryptoBench\Native\RoundStep;
use PhpCryptoBench\Native\SampledStep;
use PhpCryptoBench\Run\ChildPhp;

/**
 * mcrypt vs OpenSSL (seeds 000 and 001): AES-CBC with PKCS#7, Blowfish, and every cipher
 * openssl_get_cipher_methods() offers with and without OpenSSL's legacy provider.
 */
final class SymmetricExperiment implements Experiment, FixedWork
{
    public const CSV = 'symmetric.csv';
    public const INVENTORY_CSV = 'cipher_inventory.csv';
    public const ROUNDS_CSV = 'symmetric_rounds.csv';
    public const NATIVE_CSV = 'symmetric_native.csv';
    /** PHP against `openssl speed -evp` in interleaved rounds: cipher => operations, at NATIVE_BYTES. */
    public const NATIVE_CIPHERS = ['aes-128-cbc' => [SymmetricCase::ENCRYPT, SymmetricCase::DECRYPT], 'aes-256-cbc' => [SymmetricCase::ENCRYPT], 'bf-cbc' => [SymmetricCase::ENCRYPT]];
    /** One of the AES payloads (seed 001's 4 KiB string), so the main table has PHP's curve around it. */
    public const NATIVE_BYTES = 4096;

    /** Seed 001's 1-4 B and 1-4 KiB strings, 200 KiB, and its 20 MiB in the full profile (2 MiB in quick). */
    public const AES_PAYLOADS = ['quick' => [3, 1024, 4096, 204800, 2097152], 'full' => [3, 1024, 4096, 204800, 2097152, 20971520]];
    public const AES_KEY_BITS = [128, 192, 256];
    /** mcrypt's 8-bit CFB takes seconds on 20 MiB: that size only in the full profile. */
    public const BLOWFISH_PAYLOADS = ['quick' => [3, 4096, 204800], 'full' => [3, 4096, 204800, 20971520]];
    /**
     * Every cipher OpenSSL offers, round-tripped at 200 KiB in both profiles: the full profile's 2 MiB
     * round trips took 14 of its 90 minutes on intel-xeon-fb7fc6 (822 s of 1,391) and decide no answer
     * (the page ranks the recommended ciphers; the rest is a table of what OpenSSL offers).
     */
    public const INVENTORY_PAYLOADS = ['quick' => [204800], 'full' => [204800]];
    /**
     * The CFB1 ciphers call the block cipher once per bit (64 or 128 times a full-block mode), so one
     * 200 KiB round trip takes 0.06 to 0.7 s and their least samples were 18 of the quick profile's 25 s
     * of samples on amd-epyc-zen5 (issue 48): the quick profile round-trips them at 25 KiB, and the page
     * ranks the race by time per byte and says where a throughput was timed at 25 KiB. Chosen by mode,
     * not by a time on this host, so that every run of a profile times the same cases (compare judges a
     * case against its own payload) and a 256-bit CFB1 cipher keeps its 128-bit twin's payload (the
     * build's plausibility check). Every other cipher's round trip is under 0.1 s there.
     */
    public const BIT_SERIAL_PAYLOADS = ['quick' => [25600], 'full' => [204800]];
    private const BLOWFISH_KEY_BYTES = 16;
    /**
     * Tests only, and only under the fake clock: PHPCB_TEST_CIPHERS=name,name limits the inventory to
     * those ciphers. Its CFB1 ciphers' real 200 KiB round trips are most of a fake-clock run's time, and
     * the tests that run symmetric for something else (a killed child, the child's environment) need
     * none of them; InventoryProbeTest still classifies every cipher.
     */
    public const TEST_CIPHERS_VARIABLE = 'PHPCB_TEST_CIPHERS';
    /**
     * Tests only, and only under the fake clock: PHPCB_TEST_SYMMETRIC_MAX_BYTES=N times the AES and
     * Blowfish races at their payloads of at most N bytes. Their real 200 KiB and 2 MiB operations
     * (mcrypt's above all) are most of what is left of a fake-clock run once the inventory is small,
     * and the tests that run symmetric for something else need none of them.
     */
    public const TEST_MAX_BYTES_VARIABLE = 'PHPCB_TEST_SYMMETRIC_MAX_BYTES';
    /** The page compares engines, key sizes and ciphers at one suite, operation and payload: those are sampled in rotation. */
    public const INTERLEAVED_BY = ['suite', 'operation', 'payload_bytes'];

    public function __construct(
        private readonly string $repository,
        private readonly string $vectorDirectory,
        private readonly TableSchema $schema,
    ) {
    }

    public static function create(ExperimentSetup $setup): self
    {
        return new self($setup->repository, $setup->vectorDirectory, $setup->schema);
    }

    public function name(): string
    {
        return 'symmetric';
    }

    public function description(): string
    {
        return 'mcrypt vs OpenSSL (AES-CBC, Blowfish) and every cipher OpenSSL offers';
    }

    public function unavailableReason(): ?string
    {
        return MissingExtension::among(['openssl']);
    }

    public function processEnvironment(): array
    {
        return ['OPENSSL_CONF' => $this->repository . '/runners/openssl-legacy.cnf'];
    }

    public static function mcryptMissingReason(): ?string
    {
        return extension_loaded('mcrypt') ? null
            : 'mcrypt extension not loaded: mcrypt left PHP in 7.2; install the PECL extension (Debian: php8.2-mcrypt) to measure it';
    }

    public static function legacyMissingReason(): ?string
    {
        return in_array('bf-cbc', openssl_get_cipher_methods(), true) ? null
            : "OpenSSL's legacy provider is not loaded (OPENSSL_CONF=runners/openssl-legacy.cnf): no OpenSSL Blowfish";
    }

    /** @return list<array{0: SymmetricCipher, 1: SymmetricCipher|null}> mcrypt or null, and OpenSSL, per AES key size */
    private function aesPairs(): array
    {
        $pairs = [];
        foreach (self::AES_KEY_BITS as $bits) {
            $mcrypt = self::mcryptMissingReason() === null ? new McryptCipher('rijndael-128', 'cbc', intdiv($bits, 8)) : null;
            $pairs[] = [new OpensslCipher(sprintf('aes-%d-cbc', $bits)), $mcrypt];
        }
        return $pairs;
    }

    /** @return list<SymmetricCipher> */
    private function blowfishCiphers(): array
    {
        $ciphers = [];
        if (self::mcryptMissingReason() === null) {
            $ciphers[] = new McryptCipher('blowfish', 'ncfb', self::BLOWFISH_KEY_BYTES);
            $ciphers[] = new McryptCipher('blowfish', 'cfb', self::BLOWFISH_KEY_BYTES);
        }
        if (self::legacyMissingReason() === null) {
            $ciphers[] = new OpensslCipher('bf-cfb', 'legacy');
            $ciphers[] = new OpensslCipher('bf-cbc', 'legacy');
        }
        return $ciphers;
    }

    public function verify(): array
    {
        $this->checkPkcs7();
        $suite = new WycheproofCbcSuite($this->vectorDirectory);
        $vectors = [$suite->run('openssl aes-*-cbc', static fn (int $bits): SymmetricCipher => new OpensslCipher("aes-$bits-cbc"))->toArray()];
        if (self::mcryptMissingReason() === null) {
            $vectors[] = $suite->run('mcrypt rijndael-128 cbc + PKCS#7', static fn (int $bits): SymmetricCipher => new McryptCipher('rijndael-128', 'cbc', intdiv($bits, 8)))->toArray();
        }
        $check = new CrossEngineCheck();
        $equal = [];
        foreach ($this->aesPairs() as [$openssl, $mcrypt]) {
            if ($mcrypt !== null) {
                $equal[sprintf('AES-%d-CBC mcrypt = OpenSSL', $openssl->keyBits())] = $check->run($mcrypt, $openssl);
            }
        }
        if (self::mcryptMissingReason() === null && self::legacyMissingReason() === null) {
            $equal['Blowfish mcrypt ncfb = OpenSSL bf-cfb'] = $check->run(new McryptCipher('blowfish', 'ncfb', self::BLOWFISH_KEY_BYTES), new OpensslCipher('bf-cfb', 'legacy'));
            $equal['Blowfish mcrypt cbc + PKCS#7 = OpenSSL bf-cbc'] = $check->run(new McryptCipher('blowfish', 'cbc', self::BLOWFISH_KEY_BYTES), new OpensslCipher('bf-cbc', 'legacy'));
        }
        foreach ($this->blowfishCiphers() as $cipher) {
            $mismatch = InventoryProbe::roundTripMismatch($cipher, 1000);
            if ($mismatch !== null) {
                throw VerificationFailed::operationFailed($cipher->cipher() . '-' . $cipher->mode() . ' round trip', $mismatch);
            }
        }
        return [
            'vectors' => $vectors,
            'vectors_passed' => array_sum(array_column($vectors, 'passed')),
            'vectors_skipped' => array_sum(array_column($vectors, 'skipped')),
            'cross_engine_equal' => (object) $equal,
            'pkcs7_self_test' => 'ok',
            'observed' => ArticleObservations::observe(),
        ];
    }

    /** Known answers for the padding, and the three ways a padding can be bad. */
    private function checkPkcs7(): void
    {
        $cases = ['' => str_repeat("\x10", 16), 'abc' => 'abc' . str_repeat("\x0d", 13), str_repeat('x', 16) => str_repeat('x', 16) . str_repeat("\x10", 16)];
        foreach ($cases as $data => $padded) {
            if (Pkcs7::pad((string) $data, 16) !== $padded || Pkcs7::unpad($padded, 16) !== (string) $data) {
                throw VerificationFailed::roundTripMismatch('PKCS#7 known answer', strlen((string) $data), strlen(Pkcs7::pad((string) $data, 16)));
            }
        }
        foreach (['', str_repeat('a', 15) . "\x00", str_repeat('a', 15) . "\x11", str_repeat('a', 14) . "\x01\x02", str_repeat('a', 17)] as $bad) {
            try {
                Pkcs7::unpad($bad, 16);
            } catch (InvalidPadding) {
                continue;
            }
            throw VerificationFailed::vectorMismatch('PKCS#7 self-test', strlen($bad), 'a padding error', 'a plaintext');
        }
    }

    /** AES-CBC and Blowfish in both engines, and about as many inventory ciphers as measure() will find (inventoryEstimate). */
    public function caseCount(Profile $profile): int
    {
        $aes = count(self::AES_KEY_BITS) * count(self::AES_PAYLOADS[$profile->name]) * 2 * (self::mcryptMissingReason() === null ? 2 : 1);
        $inventory = self::inventoryEstimate() * count(self::INVENTORY_PAYLOADS[$profile->name]);
        return $aes + count($this->blowfishCiphers()) * count(self::BLOWFISH_PAYLOADS[$profile->name]) * 2 + $inventory;
    }

    /**
     * About how many ciphers the inventory round-trips: those OpenSSL offers but the authenticated ones
     * (InventoryProbe sets them aside), without probing each (a few it offers may then fail to
     * round-trip). Counted so that the AES and Blowfish groups, sampled first, leave the inventory its
     * share of the experiment's time (ExperimentBudget shares by the cases to come).
     */
    public static function inventoryEstimate(): int
    {
        $aead = static fn (string $name): bool => in_array(OpensslCipher::modeOf($name), ['gcm', 'ccm', 'ocb', 'siv', 'aead'], true);
        return count(array_filter(openssl_get_cipher_methods(), static fn (string $name): bool => !$aead($name)));
    }

    /** @return list<string> what cannot be measured here, and why */
    public function gaps(): array
    {
        return array_values(array_filter([self::mcryptMissingReason(), self::legacyMissingReason()]));
    }

    /**
     * Cipher names the default provider alone offers, listed by a PHP started with a config that
     * loads nothing else; every other name needs the legacy provider.
     *
     * @return list<string>
     */
    private function defaultProviderCiphers(): array
    {
        $environment = ChildPhp::environment(['OPENSSL_CONF' => $this->repository . '/runners/openssl-default.cnf']);
        $command = ChildPhp::command(['-r', 'echo json_encode(openssl_get_cipher_methods());']);
        $process = proc_open($command, [0 => ['pipe', 'r'], 1 => ['pipe', 'w']], $pipes, null, $environment);
        $list = is_resource($process) ? json_decode((string) stream_get_contents($pipes[1]), true) : null;
        if (is_resource($process)) {
            fclose($pipes[1]);
            fclose($pipes[0]);
            proc_close($process);
        }
        return is_array($list) ? $list : openssl_get_cipher_methods();
    }

    /** @return list<int> the payloads the inventory round-trips $cipher at in $profile */
    public static function inventoryPayloads(string $profile, string $cipher): array
    {
        return OpensslCipher::modeOf($cipher) === 'cfb1' ? self::BIT_SERIAL_PAYLOADS[$profile] : self::INVENTORY_PAYLOADS[$profile];
    }

    /** @return list<InventoryEntry> */
    private function inventory(bool $fakeClock): array
    {
        $probe = new InventoryProbe();
        $default = $this->defaultProviderCiphers();
        return array_map(
            static fn (string $name): InventoryEntry => $probe->classify($name, in_array($name, $default, true) ? 'default' : 'legacy'),
            self::inventoryNames(openssl_get_cipher_methods(), $fakeClock ? getenv(self::TEST_CIPHERS_VARIABLE) : false),
        );
    }

    /**
     * $payloads as a run measures them: under the fake clock, those of at most $maxBytes
     * (TEST_MAX_BYTES_VARIABLE) where that is a whole number; on the real clock, every one.
     *
     * @param list<int> $payloads
     * @return list<int>
     */
    public static function payloads(array $payloads, bool $fakeClock, string|false $maxBytes): array
    {
        // Not ctype_digit(): a runner started with `php -n` (KilledChildTest's) has no ctype.
        if (!$fakeClock || $maxBytes === false || preg_match('/^\d+$/D', $maxBytes) !== 1) {
            return $payloads;
        }
        return array_values(array_filter($payloads, static fn (int $payload): bool => $payload <= (int) $maxBytes));
    }

    /**
     * @param list<string> $offered
     * @return list<string> the offered names, or those of them a test's comma-separated list names
     */
    public static function inventoryNames(array $offered, string|false $testCiphers): array
    {
        if ($testCiphers === false || trim($testCiphers) === '') {
            return $offered;
        }
        $wanted = array_map('trim', explode(',', $testCiphers));
        return array_values(array_filter($offered, static fn (string $name): bool => in_array($name, $wanted, true)));
    }

    /**
     * The cases sampled in rotation: those of one suite, operation and payload size (the AES key
     * sizes in mcrypt and OpenSSL; the Blowfish modes; the inventory's ciphers).
     *
     * @param list<array{0: string, 1: SymmetricCipher, 2: string, 3: int}> $cases
     * @return list<list<int>> indices into $cases
     */
    private static function groups(array $cases): array
    {
        $groups = [];
        foreach ($cases as $index => [$suite, , $operation, $payload]) {
            $groups["$suite $operation $payload"][] = $index;
        }
        return array_values($groups);
    }

    public function measure(ExperimentContext $context): MeasurementResult
    {
        $profile = $context->profile;
        $inventory = $this->inventory($context->fakeClock);
        $maxBytes = getenv(self::TEST_MAX_BYTES_VARIABLE);
        $cases = [];
        foreach ($this->aesPairs() as $pair) {
            foreach (array_filter($pair) as $cipher) {
                foreach (self::payloads(self::AES_PAYLOADS[$profile->name], $context->fakeClock, $maxBytes) as $payload) {
                    $cases[] = ['aes_cbc', $cipher, SymmetricCase::ENCRYPT, $payload];
                    $cases[] = ['aes_cbc', $cipher, SymmetricCase::DECRYPT, $payload];
                }
            }
        }
        foreach ($this->blowfishCiphers() as $cipher) {
            foreach (self::payloads(self::BLOWFISH_PAYLOADS[$profile->name], $context->fakeClock, $maxBytes) as $payload) {
                $cases[] = ['blowfish', $cipher, SymmetricCase::ENCRYPT, $payload];
                $cases[] = ['blowfish', $cipher, SymmetricCase::DECRYPT, $payload];
            }
        }
        foreach ($inventory as $entry) {
            if ($entry->measurable()) {
                foreach (self::inventoryPayloads($profile->name, $entry->cipher) as $payload) {
                    $cases[] = ['inventory', new OpensslCipher($entry->cipher, $entry->provider), SymmetricCase::ROUNDTRIP, $payload];
                }
            }
        }
        $tables = TableSet::ofExperiment($this->schema, $this->name());
        // The rounds against `openssl speed` come last: their seconds are set aside before the cases share the time.
        $steps = $this->nativeSteps($context, $tables->get(self::ROUNDS_CSV), $tables->get(self::NATIVE_CSV));
        $rounds = InterleavedRounds::forProfile($profile);
        $rounds->reserve($context->sampler->budget(), $steps);
        $context->progress->begin($this->name(), count($cases), $profile->estimatedSeconds(count($cases)));
        $rows = [];
        $interleaving = new Interleaving(self::CSV, self::INTERLEAVED_BY);
        $advance = static function (BenchCase $case) use ($context): void {
            $context->progress->advance($case->label());
        };
        foreach (self::groups($cases) as $indices) {
            $makers = array_map(static fn (int $i): \Closure => static fn (): SymmetricCase => new SymmetricCase(...$cases[$i]), $indices);
            // A case holds its payload, a ciphertext to decrypt, and its last output.
            foreach ($context->sampler->measureMade($makers, 3 * $cases[$indices[0]][3], $interleaving, $advance) as $position => [$case, $samples]) {
                $rows[$indices[$position]] = array_map(static fn (Sample $sample): array => $case->key() + $sample->columnsWithFaults() + ['verified' => true], $samples);
            }
        }
        ksort($rows);
        foreach (array_merge(...$rows) as $row) {
            $tables->get(self::CSV)->add($row);
        }
        foreach ($inventory as $entry) {
            $tables->get(self::INVENTORY_CSV)->add($entry->toRow());
        }
        $nativeGaps = $rounds->run($this->name(), $steps, $context->progress, $context->sampler->budget());
        return new MeasurementResult($rounds->written($tables, self::NATIVE_CSV)->writeTo($context->outputDirectory), [...$this->gaps(), ...$nativeGaps]);
    }

    /**
     * The rounds against `openssl speed` (a second per cipher and operation in every round, on any
     * host), and the least samples of the inventory's slow ciphers (CFB1's 25 KiB round trip in the
     * quick profile takes up to 0.09 s, its 200 KiB one in the full profile up to 0.7 s), projected
     * from a round trip of 1 % of it (after one untimed) through each cipher this process offers
     * (a cipher only the legacy provider has, which the measuring child loads, is not projected).
     */
    public function fixedWorkNs(Profile $profile, bool $fakeClock): int
    {
        return $this->nativeNs($profile) + ($fakeClock ? 0 : SlowCases::extraNs($profile, self::inventoryOperationNs($profile)));
    }

    /** @return list<float> one round trip per inventory cipher and payload, as a 1 % one times 100 projects it */
    private static function inventoryOperationNs(Profile $profile): array
    {
        $operations = [];
        foreach (openssl_get_cipher_methods() as $name) {
            if (in_array(OpensslCipher::modeOf($name), ['gcm', 'ccm', 'ocb', 'siv', 'aead'], true)) {
                continue;
            }
            foreach (self::inventoryPayloads($profile->name, $name) as $payload) {
                try {
                    $cipher = new OpensslCipher($name);
                    $key = random_bytes(intdiv($cipher->keyBits(), 8));
                    $iv = $cipher->ivBytes() > 0 ? random_bytes($cipher->ivBytes()) : '';
                    $plaintext = random_bytes(intdiv($payload, 100) - intdiv($payload, 100) % 8);
                    $roundTrip = static fn (): string => $cipher->decrypt($cipher->encrypt($plaintext, $key, $iv), $key, $iv);
                    $roundTrip(); // the first call fetches the cipher: not what 100 of them would take
                    $operations[] = 100 * SlowCases::time($roundTrip);
                } catch (BenchException) {
                    continue; // not offered here: the inventory says so, and it is not timed
                }
            }
        }
        return $operations;
    }

    private function nativeNs(Profile $profile): int
    {
        $primitives = [];
        foreach (self::NATIVE_CIPHERS as $name => $operations) {
            if ($name !== 'bf-cbc' || self::legacyMissingReason() === null) {
                foreach ($operations as $operation) {
                    $primitives[] = NativePrimitive::cipher($name, self::NATIVE_BYTES, $operation === SymmetricCase::DECRYPT);
                }
            }
        }
        return InterleavedRounds::forProfile($profile)->nativeNs($primitives);
    }

    /**
     * Per cipher and operation: `openssl speed -evp` (with this process's OPENSSL_CONF, so Blowfish
     * comes from the same legacy provider), then PHP's openssl_encrypt or openssl_decrypt.
     *
     * @return list<RoundStep>
     */
    private function nativeSteps(ExperimentContext $context, CsvTable $rounds, CsvTable $native): array
    {
        $steps = [];
        foreach (self::NATIVE_CIPHERS as $name => $operations) {
            $provider = $name === 'bf-cbc' ? 'legacy' : 'default';
            if ($provider === 'legacy' && self::legacyMissingReason() !== null) {
                continue;
            }
            foreach ($operations as $operation) {
                $steps[] = new NativeStep($context->nativeSpeed, NativePrimitive::cipher($name, self::NATIVE_BYTES, $operation === SymmetricCase::DECRYPT), $native);
                $case = new SymmetricCase('native', new OpensslCipher($name, $provider), $operation, self::NATIVE_BYTES);
                $columns = static fn (BenchCase $c): array => ['cipher' => $name, 'provider' => $provider, 'operation' => $operation, 'payload_bytes' => $c->bytesPerIteration(), 'native' => $name, 'verified' => true];
                $steps[] = SampledStep::of($context->sampler, $context->profile, $case, $rounds, $columns);
            }
        }
        return $steps;
    }
}
