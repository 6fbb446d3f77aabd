<?php

declare(strict_types=1);

namespace PhpCryptoBench\Argon2;

use PhpCryptoBench\Exception\VerificationFailed;
use PhpCryptoBench\Experiment\ExperimentContext;
use PhpCryptoBench\Experiment\ExperimentSetup;
use PhpCryptoBench\Experiment\MeasurementResult;
use PhpCryptoBench\Experiment\TakesWhatIsLeft;
use PhpCryptoBench\Harness\FixedWork;
use PhpCryptoBench\Harness\Profile;
use PhpCryptoBench\Io\CsvTable;
use PhpCryptoBench\Io\TableSchema;
use PhpCryptoBench\Io\TableSet;
use PhpCryptoBench\Native\InterleavedRounds;

/**
 * Argon2 over memory × threads × time cost (seed 003, part 2), through password_hash, sodium and
 * the reference CLI. Each cell runs in a child process (wall, CPU, the memory one hash takes); a cell that fails
 * (memory it cannot allocate, parameters an interface refuses) is recorded and the grid goes on.
 * bcrypt at costs 10 to 13 is timed beside it (BcryptCosts), for the page's latency budgets.
 *
 * Its work is hashes whose cost the host sets, so it is planned in the experiment's share of the run
 * (CellShares), from a probe of this host (HashCost): every bcrypt cost, every cell and the rounds
 * against the CLI (in that order: shares()) are sure of their least hashes (each verified) before any
 * takes more, and what is left past those goes to each in proportion to its cost. Where even the least
 * would not fit, the rounds take fewer hashes a round, never fewer than 6 in all (still a CI of their
 * median: shortSamples).
 */
final class Argon2Experiment implements TakesWhatIsLeft, FixedWork
{
    public const CSV = 'argon2.csv';
    public const ROUNDS_CSV = 'argon2_rounds.csv';
    /**
     * PHP's two interfaces against the reference CLI at equal parameters, in interleaved rounds:
     * 64 MiB, 3 passes, 1 thread (sodium has no other), Argon2id and Argon2i (NATIVE_VARIANTS).
     */
    public const NATIVE_CELL = ['memory_kib' => 65536, 'time_cost' => 3, 'threads' => 1];
    /** Under the fake clock each cell still makes one real hash: 1 MiB keeps the rounds of a test run short. */
    public const FAKE_CLOCK_NATIVE_MEMORY_KIB = 1024;
    /**
     * The rounds' variants per profile: the quick profile's only Argon2id, the variant the page picks
     * parameters from (its Argon2i cells still meet the CLI's at equal parameters in the grid), so that
     * its rounds' least hashes halve.
     */
    public const NATIVE_VARIANTS = ['quick' => ['argon2id'], 'full' => ['argon2id', 'argon2i']];
    public const NATIVE_SAMPLES = 3;
    /** The rounds' hashes per round when the share is short, but never fewer than NATIVE_LEAST_HASHES in all (shortSamples). */
    public const NATIVE_SAMPLES_SHORT = 2;
    /** The rounds' least hashes per interface in all: 6, the fewest with a CI of their median. */
    public const NATIVE_LEAST_HASHES = 6;
    public const GRID = [
        'quick' => ['memory_mib' => [16, 64], 'threads' => [1, 2], 'time_cost' => [1, 3]],
        'full' => ['memory_mib' => [16, 32, 64, 128, 256, 512, 1024], 'threads' => [1, 2, 4, 8], 'time_cost' => [1, 3, 6]],
        /*
         * The other variants (Argon2i, the CLI's Argon2d) answer the articles' comparisons, not which
         * parameters to pick: in the full profile they take a coarser grid, so that the full grid of
         * Argon2id (password_hash and sodium, what a PHP application uses) fits. The whole grid took
         * 43 of the full profile's 90 minutes on intel-xeon-fb7fc6.
         */
        'full-other' => ['memory_mib' => [16, 64, 256, 1024], 'threads' => [1, 2, 4], 'time_cost' => [1, 3]],
        /*
         * In the quick profile likewise, one thread: the page's memory curves (one thread per series),
         * password_hash's Argon2i beside the CLI's at equal parameters and the variants at equal
         * parameters keep their cells, and the quick grid's least hashes fit the slowest host's budget.
         */
        'quick-other' => ['memory_mib' => [16, 64], 'threads' => [1], 'time_cost' => [1, 3]],
    ];
    /**
     * Parameter sets measured in every profile besides the grid, through each Argon2id interface, so
     * that the page gives what they cost here: OWASP's minimum for Argon2id (19 MiB, t=2, p=1), as
     * [memory MiB, threads, time cost]; PHP's own defaults are added from its constants (namedCells).
     */
    public const OWASP_MINIMUM = [19, 1, 2];
    /** The self-tests' memory: small, and still what every hash must hold resident (memoryPerHash). */
    public const SELF_TEST_MEMORY_KIB = 1024;
    /**
     * Tests only, and only under the fake clock: PHPCB_TEST_ARGON2_MAX_MIB=16 keeps the cells of at most
     * that much memory. A kill-and-resume test needs a grid with a cell to kill, not the whole grid's
     * real hashing (each cell still makes real hashes under the fake clock).
     */
    public const TEST_MAX_MIB_VARIABLE = 'PHPCB_TEST_ARGON2_MAX_MIB';
    /** The interfaces and variants measured: the paper's CLI Argon2d and Argon2i, PHP's two, sodium's two. */
    public const VARIANTS = [['password_hash', 'argon2id'], ['password_hash', 'argon2i'], ['sodium', 'argon2id'], ['sodium', 'argon2i'], ['cli', 'argon2d'], ['cli', 'argon2i']];

    /** The probe of this host, kept from fixedWorkNs() for measure() (per clock: modelled or real). */
    private ?HashCost $cost = null;

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
        return 'argon2';
    }

    public function description(): string
    {
        return 'Argon2 over memory × threads × time cost: password_hash, sodium and the argon2 CLI';
    }

    public function unavailableReason(): ?string
    {
        if (Argon2Cell::provider() === null && !extension_loaded('sodium')) {
            return 'neither PHP\'s Argon2 (PASSWORD_ARGON2_PROVIDER) nor the sodium extension is available';
        }
        return null;
    }

    public function processEnvironment(): array
    {
        return [];
    }

    public function verify(): array
    {
        $reference = '$argon2i$v=19$m=65536,t=2,p=4$c29tZXNhbHQ$RdescudvJCsgt3ub+b+dWRWJTmaaJObG';
        if (!password_verify('password', $reference) || password_verify('passwore', $reference)) {
            throw VerificationFailed::knownAnswerMismatch('phc-winner-argon2 README example', 'password_verify to accept "password" and reject "passwore"', 'another answer');
        }
        $runner = new CellRunner($this->repository . '/runners/argon2-cell.php');
        $checked = [];
        $memory = null;
        foreach (self::VARIANTS as [$interface, $variant]) {
            $cell = Argon2Cell::of($interface, $variant, self::SELF_TEST_MEMORY_KIB, 1, 3);
            $result = $runner->measure($cell, 1, 0);
            if ($result['status'] !== 'ok' || $result['verified'] === false) {
                throw VerificationFailed::operationFailed("$interface $variant self-test", $result['detail'] ?: 'its hash did not verify');
            }
            $verifiedBy = $result['verified_by'] ?? 'password_verify';
            $checked[] = "$interface $variant: " . ($result['verified'] === true ? "its hash accepted by $verifiedBy" : "hashes; $verifiedBy");
            $memory ??= self::memoryPerHash($cell, $result['max_rss_kib']);
        }
        $lanes = self::sodiumVerifiesLanes();
        // bcrypt, timed beside the grid (BcryptCosts): checked here first.
        $bcrypt = BcryptCosts::verify();
        return [
            'known_answers' => ['phc-winner-argon2 README: $argon2i$v=19$m=65536,t=2,p=4$c29tZXNhbHQ$RdescudvJCsgt3ub+b+dWRWJTmaaJObG verifies for "password", not for "passwore"', $bcrypt['known_answer']],
            'self_tests' => [...$checked, ...($lanes === null ? [] : [$lanes]), $bcrypt['self_test']],
            'provider' => Argon2Cell::provider(),
            'verifiers' => self::verifiers(new Argon2Hasher(), Argon2Cell::provider()),
        ] + ($memory === null ? [] : ['memory_per_hash' => $memory]);
    }

    /**
     * What checks each interface's hashes in this run's cells (the manifest's verification.verifiers),
     * one line per interface and variant, split by threads only where the verifier differs with them.
     *
     * @return list<string>
     */
    public static function verifiers(Argon2Hasher $hasher, ?string $provider): array
    {
        $lines = [];
        foreach (self::VARIANTS as [$interface, $variant]) {
            $byThreads = [];
            foreach ([1, 2] as $threads) {
                $cell = Argon2Cell::of($interface, $variant, self::SELF_TEST_MEMORY_KIB, $threads, 3);
                if ($cell->refusal($provider) === null) {
                    $byThreads[$threads === 1 ? '1 thread' : 'more threads'] = $hasher->verification($cell);
                }
            }
            if (count(array_unique($byThreads)) === 1) {
                $lines[] = sprintf('%s %s: %s', $interface, $variant, reset($byThreads));
                continue;
            }
            foreach ($byThreads as $threads => $verification) {
                $lines[] = sprintf('%s %s, %s: %s', $interface, $variant, $threads, $verification);
            }
        }
        return $lines;
    }

    /**
     * libsodium checks libargon2's hashes of more than one thread too (Argon2Verifiers): here, before
     * any cell relies on it, on a 2-thread password_hash hash (a millisecond at 1 MiB). Null where
     * there is no such pair to compare (PHP's Argon2 is libsodium, or the sodium extension is absent).
     *
     * @throws VerificationFailed
     */
    private static function sodiumVerifiesLanes(): ?string
    {
        if (Argon2Cell::provider() !== 'standard' || !extension_loaded('sodium')) {
            return null;
        }
        $hash = password_hash(Argon2Hasher::PASSWORD, PASSWORD_ARGON2ID, ['memory_cost' => self::SELF_TEST_MEMORY_KIB, 'time_cost' => 1, 'threads' => 2]);
        if (!sodium_crypto_pwhash_str_verify($hash, Argon2Hasher::PASSWORD) || sodium_crypto_pwhash_str_verify($hash, Argon2Hasher::PASSWORD . 'x')) {
            throw VerificationFailed::operationFailed('sodium_crypto_pwhash_str_verify of a 2-thread libargon2 hash', 'libsodium did not accept it for its password alone');
        }
        return 'sodium_crypto_pwhash_str_verify (libsodium) accepts a 2-thread password_hash (libargon2) hash, and rejects it for another password';
    }

    /**
     * What argon2.csv's max_rss_kib means in this run (the manifest's verification.memory_per_hash),
     * from a self-test of an in-process interface: the memory one hash takes (RusageClock), when that
     * self-test's hash took at least its Argon2 memory (every block is written), as it must; null for
     * the CLI (a process of its own, measured as one) and when the count is short (then the page does
     * not read the column as memory per hash).
     */
    public static function memoryPerHash(Argon2Cell $cell, int $measuredKib): ?string
    {
        if ($cell->interface === 'cli' || $measuredKib < $cell->memoryKib) {
            return null;
        }
        // No measured number in the text: a fake-clock run's manifest stays the same on every host.
        return sprintf('%s %s self-test at m=%d KiB: its hash\'s peak resident memory over what the cell process held just before it covers the Argon2 memory, as it must; max_rss_kib is that count, the memory one hash takes, in every cell but the CLI\'s', $cell->interface, $cell->variant, $cell->memoryKib);
    }

    /** @return list<Argon2Cell> */
    public function cells(Profile $profile): array
    {
        $cells = [];
        foreach (self::VARIANTS as [$interface, $variant]) {
            if (!self::takes($profile, $interface)) {
                continue;
            }
            $grid = self::GRID[self::decidesParameters($interface, $variant) ? $profile->name : $profile->name . '-other'];
            foreach ($grid['time_cost'] as $time) {
                foreach ($grid['threads'] as $threads) {
                    if ($interface === 'sodium' && $threads > 1) {
                        continue; // sodium has no threads parameter: 1 is its only value
                    }
                    foreach ($grid['memory_mib'] as $mib) {
                        $cells[] = Argon2Cell::of($interface, $variant, $mib * 1024, $threads, $time);
                    }
                }
            }
        }
        foreach (self::namedCells() as $cell) {
            if (!in_array($cell, $cells, false)) {
                $cells[] = $cell;
            }
        }
        return $cells;
    }

    /** Whether $profile measures through $interface: the reference CLI is a native tool, which --no-native leaves out. */
    private static function takes(Profile $profile, string $interface): bool
    {
        return $profile->native || $interface !== 'cli';
    }

    /** Whether a variant's cells decide the parameters the page picks: Argon2id, as PHP applications call it. */
    public static function decidesParameters(string $interface, string $variant): bool
    {
        return $variant === 'argon2id' && in_array($interface, ['password_hash', 'sodium'], true);
    }

    /**
     * @param list<Argon2Cell> $cells
     * @return list<Argon2Cell> the cells of at most $maxMib MiB, or all of them when it is not a number
     */
    public static function forTests(array $cells, string|false $maxMib): array
    {
        if ($maxMib === false || !ctype_digit($maxMib)) {
            return $cells;
        }
        return array_values(array_filter($cells, static fn (Argon2Cell $cell): bool => $cell->memoryKib <= (int) $maxMib * 1024));
    }

    /**
     * PHP's password_hash() defaults (64 MiB, t=4, p=1 in PHP 7.3 to 8.4) and OWASP's minimum,
     * through password_hash and sodium_crypto_pwhash with Argon2id (sodium's only thread count is 1).
     *
     * @return list<Argon2Cell>
     */
    public static function namedCells(): array
    {
        $php = defined('PASSWORD_ARGON2_DEFAULT_MEMORY_COST')
            ? [intdiv(PASSWORD_ARGON2_DEFAULT_MEMORY_COST, 1024), PASSWORD_ARGON2_DEFAULT_THREADS, PASSWORD_ARGON2_DEFAULT_TIME_COST]
            : [64, 1, 4];
        $cells = [];
        foreach ([$php, self::OWASP_MINIMUM] as [$mib, $threads, $time]) {
            $cells[] = Argon2Cell::of('password_hash', 'argon2id', $mib * 1024, $threads, $time);
            if ($threads === 1) {
                $cells[] = Argon2Cell::of('sodium', 'argon2id', $mib * 1024, 1, $time);
            }
        }
        return $cells;
    }

    public function caseCount(Profile $profile): int
    {
        return count($this->cells($profile));
    }

    /**
     * The least this experiment does on this host, from one probe (HashCost): its self-tests, every
     * cell's least hashes, the rounds against the CLI at their shortest and every bcrypt cost's least
     * hashes, all verified. The run reserves it before it shares the rest by case count.
     */
    public function fixedWorkNs(Profile $profile, bool $fakeClock): int
    {
        $cost = $this->hashCost($fakeClock);
        $sampling = CellSampling::forProfile($profile->name);
        $provider = Argon2Cell::provider();
        $cells = array_values(array_filter($this->cells($profile), static fn (Argon2Cell $cell): bool => $cell->refusal($provider) === null));
        $selfTests = array_sum(array_map(static fn (array $v): int => $cost->cellNs(Argon2Cell::of($v[0], $v[1], self::SELF_TEST_MEMORY_KIB, 1, 3), 1), self::VARIANTS));
        $rounds = InterleavedRounds::forProfile($profile)->rounds * array_sum(array_map(
            static fn (Argon2Cell $cell): int => $cost->cellNs($cell, self::shortSamples(InterleavedRounds::forProfile($profile))),
            $this->nativeCells($profile, $provider, $fakeClock ? self::FAKE_CLOCK_NATIVE_MEMORY_KIB : self::NATIVE_CELL['memory_kib']),
        ));
        return $selfTests + array_sum(self::gridNs($cells, $cost, $sampling->minSamples)) + $rounds + array_sum(BcryptCosts::projectedNs($cost, $sampling->minSamples));
    }

    private function hashCost(bool $fakeClock): HashCost
    {
        if ($this->cost === null || $this->cost->modelled !== $fakeClock) {
            $this->cost = HashCost::probed(new CellRunner($this->repository . '/runners/argon2-cell.php', $fakeClock), $fakeClock);
        }
        return $this->cost;
    }

    /**
     * Each cell's $hashes hashes, as $cost projects them (0 for a cell its interface refuses).
     *
     * @param list<Argon2Cell> $cells
     * @return list<int>
     */
    private static function gridNs(array $cells, HashCost $cost, int $hashes): array
    {
        $provider = Argon2Cell::provider();
        return array_map(static fn (Argon2Cell $cell): int => $cell->refusal($provider) === null ? $cost->cellNs($cell, $hashes) : 0, $cells);
    }

    /**
     * The experiment's items as they share its share, in the order they run: bcrypt's costs, the grid's
     * cells, then the rounds against the CLI. Each is sure of its least hashes; the rounds take what they
     * take; no cell is given more than its most hashes take or its ceiling allows, nor a bcrypt cost more
     * than its most hashes take, and what an item cannot use goes to the others (CellShares). bcrypt comes
     * first: its hashes are CPU alone and reach their target in 6 to 9 of their 30, and what its weight held
     * for it reaches the cells as what is left on the clock; measured last, what it held went unspent at
     * the end, while cells had stopped wide of their target for want of it. (A cell's ceiling is
     * corrected as the projections are: on a host slower than projected its room looks larger than the
     * ceiling lets it use, and what it leaves reaches the items after it as what is left on the clock.)
     *
     * @param list<int> $bcryptLeastNs each cost's least hashes, as projected
     * @param list<int> $bcryptMostNs each cost's most hashes
     * @param list<int> $gridLeastNs each cell's least hashes (0: a cell its interface refuses)
     * @param list<int> $gridMostNs each cell's most hashes, ceiled
     * @param (\Closure(): int)|null $leftNow what is left on the run's clock (null: the modelled times count)
     */
    public static function shares(int $availableNs, array $bcryptLeastNs, array $bcryptMostNs, array $gridLeastNs, array $gridMostNs, int $roundsNs, ?\Closure $leftNow = null): CellShares
    {
        return CellShares::of(
            $availableNs,
            [...$bcryptLeastNs, ...$gridLeastNs, $roundsNs],
            array_map('floatval', [...$bcryptLeastNs, ...$gridLeastNs, 0]),
            $leftNow,
            [...$bcryptMostNs, ...$gridMostNs, $roundsNs],
        );
    }

    public function measure(ExperimentContext $context): MeasurementResult
    {
        $profile = $context->profile;
        $sampling = CellSampling::forProfile($profile->name);
        $grid = self::forTests($this->cells($profile), $context->fakeClock ? getenv(self::TEST_MAX_MIB_VARIABLE) : false);
        $checkpoint = CellCheckpoint::open($context->outputDirectory, $this->schema->columns(self::CSV), $grid);
        $left = array_values(array_filter($grid, static fn (Argon2Cell $cell): bool => !$checkpoint->has($cell)));
        if ($checkpoint->cellsDone() > 0) {
            $context->progress->message(sprintf('[%s] resuming: %d of %d cells were measured before the run stopped (%s)', $this->name(), $checkpoint->cellsDone(), count($grid), CellCheckpoint::FILE));
        }
        $runner = new CellRunner($this->repository . '/runners/argon2-cell.php', $context->fakeClock);
        $cost = $this->hashCost($context->fakeClock);
        $provider = Argon2Cell::provider();
        $tables = TableSet::ofExperiment($this->schema, $this->name())->without(self::CSV);
        $rounds = $tables->get(self::ROUNDS_CSV);
        $memoryKib = $context->fakeClock ? self::FAKE_CLOCK_NATIVE_MEMORY_KIB : self::NATIVE_CELL['memory_kib'];
        $interleaved = InterleavedRounds::forProfile($profile);
        $available = $context->sampler->budgetLeftNs();
        $gridMinimum = self::gridNs($left, $cost, $sampling->minSamples);
        $bcryptMinimum = BcryptCosts::projectedNs($cost, $sampling->minSamples);
        $perRound = $this->roundSamples($profile, $interleaved, $cost, $provider, $memoryKib, $available - array_sum($gridMinimum) - array_sum($bcryptMinimum));
        $steps = $this->nativeSteps($profile, $runner, $rounds, $provider, $memoryKib, $cost, $perRound);
        $roundsNs = $interleaved->fixedNs($steps);
        $shares = self::shares(
            $available,
            $bcryptMinimum,
            BcryptCosts::projectedNs($cost, $sampling->maxSamples),
            $gridMinimum,
            array_map($sampling->ceiled(...), self::gridNs($left, $cost, $sampling->maxSamples)),
            $roundsNs,
            // On the real clock, what is left is read from it; the fake clock counts the cells' modelled times.
            $context->fakeClock ? null : static fn (): int => $context->sampler->budgetLeftNs(),
        );
        $bcrypt = $tables->get(BcryptCosts::CSV);
        $context->progress->message(sprintf('[%s] bcrypt (password_hash) at costs %s, beside the grid', $this->name(), implode(', ', BcryptCosts::COSTS)));
        BcryptCosts::forRun($context->fakeClock, getenv(BcryptCosts::TEST_MAX_COST_VARIABLE))->measureInto($bcrypt, $sampling, $shares, $cost);
        $context->progress->begin($this->name(), count($left), $shares->minimumToComeNs() / 1e9, false);
        $cells = new SharedCells($shares, $cost, $sampling);
        $inChild = static fn (Argon2Cell $cell, int $least, int $budgetNs, int $most, float $target): array => $runner->measure($cell, $least, max(1, intdiv($budgetNs, 1_000_000)), $most, $target);
        foreach ($left as $cell) {
            $refusal = $cell->refusal($provider);
            $result = null;
            if ($refusal === null) {
                $result = $cells->measure($cell, $inChild);
            } else {
                $cells->skip();
            }
            $checkpoint->record($cell, CellRows::of($cell, $context->cores, $refusal, $result));
            $context->progress->advance(sprintf('%s %s m=%d MiB p=%d t=%d', $cell->interface, $cell->variant, $cell->memoryKib / 1024, $cell->threads, $cell->timeCost));
        }
        // The main table is the checkpoint's, written as cells finish; the others are written at the end.
        $shares->forNext(); // the rounds' item: they take what they take, read against what is left
        $started = hrtime(true);
        $gaps = $profile->native ? $interleaved->run($this->name(), $steps, $context->progress) : [InterleavedRounds::NATIVE_LEFT_OUT];
        $shares->spent($context->fakeClock ? 0 : hrtime(true) - $started, $roundsNs);
        // Without the native tools there are no rounds (nativeCells), and no table of them.
        $written = $interleaved->written($tables, self::ROUNDS_CSV)->writeTo($context->outputDirectory);
        $tally = $sampling->tally($checkpoint->records(), $rounds->records(), $bcrypt->records());
        $checkpoint->complete($context->outputDirectory . '/' . self::CSV);
        // What measured is the cell processes: the manifest records their PHP, not the runner's.
        return new MeasurementResult([self::CSV, ...$written], $gaps, $runner->environment(), $tally);
    }

    /**
     * The rounds' hashes per round: NATIVE_SAMPLES, or NATIVE_SAMPLES_SHORT when the rounds at full
     * length would not fit in $leftNs (what the share leaves past the grid's and bcrypt's least).
     */
    private function roundSamples(Profile $profile, InterleavedRounds $rounds, HashCost $cost, ?string $provider, int $memoryKib, int $leftNs): int
    {
        $full = $rounds->rounds * array_sum(array_map(static fn (Argon2Cell $cell): int => $cost->cellNs($cell, self::NATIVE_SAMPLES), $this->nativeCells($profile, $provider, $memoryKib)));
        return $full <= $leftNs ? self::NATIVE_SAMPLES : self::shortSamples($rounds);
    }

    /**
     * The rounds' hashes per round when the share is short: NATIVE_SAMPLES_SHORT, or more where the
     * profile's rounds are too few for NATIVE_LEAST_HASHES in all (3 over the quick profile's 2 rounds,
     * 2 over the full profile's 5).
     */
    public static function shortSamples(InterleavedRounds $rounds): int
    {
        return max(self::NATIVE_SAMPLES_SHORT, (int) ceil(self::NATIVE_LEAST_HASHES / max(1, $rounds->rounds)));
    }

    /**
     * The cells of the rounds: per variant, the CLI, then password_hash, then sodium, those the provider
     * allows; none without the native tools. The rounds exist to set PHP against the CLI: without it they
     * would time password_hash and sodium at parameters the grid has, which the page does not show
     * (13 s of make report's least work on a host 2.3 times slower than a family-25 model-17 one).
     *
     * @return list<Argon2Cell>
     */
    private function nativeCells(Profile $profile, ?string $provider, int $memoryKib): array
    {
        if (!$profile->native) {
            return [];
        }
        $cells = [];
        foreach (self::NATIVE_VARIANTS[$profile->name] ?? self::NATIVE_VARIANTS['quick'] as $variant) {
            foreach (['cli', 'password_hash', 'sodium'] as $interface) {
                $cell = Argon2Cell::of($interface, $variant, $memoryKib, self::NATIVE_CELL['threads'], self::NATIVE_CELL['time_cost']);
                if ($cell->refusal($provider) === null) {
                    $cells[] = $cell;
                }
            }
        }
        return $cells;
    }

    /**
     * Per variant: the CLI, then password_hash, then sodium, each a cell process of $perRound hashes.
     *
     * @return list<CellStep>
     */
    private function nativeSteps(Profile $profile, CellRunner $runner, CsvTable $rounds, ?string $provider, int $memoryKib, HashCost $cost, int $perRound): array
    {
        return array_map(static fn (Argon2Cell $cell): CellStep => new CellStep($runner, $cell, $perRound, $rounds, $cost), $this->nativeCells($profile, $provider, $memoryKib));
    }
}
