<?php

declare(strict_types=1);

namespace PhpCryptoBench\Tests\Jwt;

use PhpCryptoBench\Experiment\ExperimentContext;
use PhpCryptoBench\Experiment\ExperimentSetup;
use PhpCryptoBench\Harness\FakeTimer;
use PhpCryptoBench\Harness\Profile;
use PhpCryptoBench\Harness\Progress;
use PhpCryptoBench\Harness\Sampler;
use PhpCryptoBench\Io\CsvTable;
use PhpCryptoBench\Io\TableSchema;
use PhpCryptoBench\Jws\Algorithms;
use PhpCryptoBench\Jwt\CurvesPageKeygen;
use PhpCryptoBench\Jwt\FreshJwtKeys;
use PhpCryptoBench\Jwt\JwtExperiment;
use PhpCryptoBench\Jwt\JwtScheme;
use PhpCryptoBench\Native\FixedNativeSpeed;
use PhpCryptoBench\Run\Manifest;
use PhpCryptoBench\Tests\Support\SharedJwtKeys;
use PHPUnit\Framework\TestCase;

/**
 * Issue 48: the JWT page quotes key generation from the curves page (ec_keygen) of the same run, so
 * the experiment does not time it again where ec_keygen measured it; where it did not (`--only jwt`,
 * a failed ec_keygen, an HMAC secret), the experiment times it as before.
 */
final class JwtExperimentTest extends TestCase
{
    private const ALL_KEYS = ['RSA-2048', 'prime256v1', 'secp384r1', 'secp521r1', 'Ed25519'];
    private const HMAC = ['HS256', 'HS384', 'HS512'];
    /** The quick profile's layer rounds: 5 algorithms, sign and verify, primitive and JWS layer. */
    private const LAYER_CASES = 5 * 2 * 2;

    private string $directory;
    private TableSchema $schema;

    protected function setUp(): void
    {
        $this->directory = sys_get_temp_dir() . '/pcb-jwt-' . bin2hex(random_bytes(4));
        mkdir($this->directory);
        $this->schema = TableSchema::load(REPOSITORY . '/data/schema/tables');
    }

    protected function tearDown(): void
    {
        array_map('unlink', glob($this->directory . '/*') ?: []);
        rmdir($this->directory);
    }

    /** The suite's RSA key for RS and PS (SharedJwtKeys): measure() would make six, for nothing these tests check. */
    private function experiment(): JwtExperiment
    {
        $setup = ExperimentSetup::forRepository(REPOSITORY);
        return new JwtExperiment($setup->vectorDirectory, $setup->schema, keys: new SharedJwtKeys());
    }

    /**
     * The run directory as the runner leaves it after ec_keygen: its manifest entry, and ec_keygen.csv
     * with keygen rows of $keygen and a sign row of $signedOnly (a scheme whose keygen it did not time).
     *
     * @param list<string> $keygen
     * @param list<string> $files what the entry lists
     */
    private function recordEcKeygen(string $status, array $keygen, array $files = ['ec_keygen.csv'], string $signedOnly = 'secp256k1'): void
    {
        $manifest = Manifest::start(['run_id' => '20260101T0000Z-test-php8.2', 'profile' => 'quick']);
        $manifest->recordExperiment('ec_keygen', ['status' => $status, 'files' => $files]);
        $manifest->save($this->directory);
        $table = $this->schema->table('ec_keygen.csv');
        foreach ([...array_map(static fn (string $scheme): array => [$scheme, 'keygen'], $keygen), [$signedOnly, 'sign']] as [$scheme, $operation]) {
            $table->add(['interface' => 'openssl', 'curve' => $scheme, 'family' => 'x', 'organization' => 'x', 'field_bits' => 256, 'key_bits' => 256, 'security_bits' => 128, 'operation' => $operation, 'sample' => 0, 'iterations' => 1, 'elapsed_ns' => 1000, 'verified' => true]);
        }
        $table->writeTo($this->directory . '/ec_keygen.csv');
    }

    /**
     * The experiment measured under the fake clock in the run directory.
     *
     * @return array{keygen: list<string>, rows: list<array<string, string>>, cases: int, progress: string}
     */
    private function measure(JwtExperiment $experiment): array
    {
        $profile = Profile::named('quick')->forFakeClock();
        $stream = fopen('php://memory', 'w+');
        self::assertIsResource($stream);
        $sampler = new Sampler(new FakeTimer(), $profile);
        $result = $experiment->measure(new ExperimentContext($profile, $sampler, new Progress($stream), new FixedNativeSpeed(), $this->directory, true, 2));
        self::assertSame([], $result->gaps);
        $rows = CsvTable::read($this->directory . '/jwt.csv', $this->schema->columns('jwt.csv'));
        $keygen = array_values(array_unique(array_column(array_filter($rows, static fn (array $row): bool => $row['operation'] === 'keygen'), 'alg')));
        rewind($stream);
        return ['keygen' => $keygen, 'rows' => $rows, 'cases' => $sampler->tally()->toManifest()['cases'], 'progress' => (string) stream_get_contents($stream)];
    }

    /** @param list<array<string, string>> $rows */
    private static function signAndVerifyCases(array $rows): int
    {
        $signOrVerify = array_filter($rows, static fn (array $row): bool => $row['operation'] !== 'keygen');
        return count(array_unique(array_map(static fn (array $row): string => $row['alg'] . ' ' . $row['operation'] . ' ' . $row['payload_chars'], $signOrVerify)));
    }

    public function testARunWhoseEcKeygenTimedTheJwtKeysTimesOnlyTheHmacSecretsKeygen(): void
    {
        $this->recordEcKeygen('ok', self::ALL_KEYS);
        $measured = $this->measure($this->experiment()->after(['ec_keygen']));

        self::assertSame(self::HMAC, $measured['keygen']);
        self::assertSame(13 * 2 * 4, self::signAndVerifyCases($measured['rows']), 'sign and verify are the same cases as before');
        self::assertSame(13 * 2 * 4 + 3 + self::LAYER_CASES, $measured['cases'], 'the manifest\'s sampling counts the cases measured');
        self::assertStringContainsString('[jwt] 107 cases', $measured['progress']);
        self::assertStringContainsString('[jwt] key generation of prime256v1, secp384r1, secp521r1, RSA-2048, Ed25519: quoted from this run\'s ec_keygen, not timed again', $measured['progress']);
    }

    /**
     * Without ec_keygen every algorithm's keygen is timed here, as before: the list measure() builds its
     * keygen cases from (the two tests around this one measure through it). Not measured here: timing the
     * six RSA-2048 keygen cases under the fake clock makes 54 real keys, 8 CPU-seconds of every `make test`.
     */
    public function testARunWithoutEcKeygenTimesEveryAlgorithmsKeygenAsBefore(): void
    {
        $nothingHere = CurvesPageKeygen::measuredIn($this->directory, $this->schema);
        self::assertSame([], $nothingHere->schemes());
        self::assertSame(['ES256', 'ES384', 'ES512', 'RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512', 'EdDSA', ...self::HMAC], JwtExperiment::keygenTimedHere($nothingHere));
        self::assertSame(Algorithms::NAMES, JwtExperiment::keygenTimedHere(CurvesPageKeygen::none()));
    }

    public function testWhatTheRunHoldsDecidesNotWhatTheRunnerProjected(): void
    {
        // Told ec_keygen comes first, but it measured only RSA-2048 (another stack's curve list, say).
        $this->recordEcKeygen('partial', ['RSA-2048']);
        $measured = $this->measure($this->experiment()->after(['ec_keygen']));

        self::assertSame(['ES256', 'ES384', 'ES512', 'EdDSA', ...self::HMAC], $measured['keygen']);
    }

    public function testOnlyKeygenRowsOfAMeasuredListedEcKeygenCount(): void
    {
        $this->recordEcKeygen('partial', ['RSA-2048', 'prime256v1', 'secp224r1'], signedOnly: 'secp384r1');
        self::assertSame(['prime256v1', 'RSA-2048'], CurvesPageKeygen::measuredIn($this->directory, $this->schema)->schemes(), 'the JWT keys\' kinds, not secp384r1\'s sign row nor secp224r1');

        $this->recordEcKeygen('failed', self::ALL_KEYS, []);
        self::assertSame([], CurvesPageKeygen::measuredIn($this->directory, $this->schema)->schemes(), 'a failed entry\'s files are not the run\'s');

        $this->recordEcKeygen('ok', self::ALL_KEYS, []);
        self::assertSame([], CurvesPageKeygen::measuredIn($this->directory, $this->schema)->schemes(), 'a file the entry does not list');

        unlink($this->directory . '/manifest.json');
        self::assertSame([], CurvesPageKeygen::measuredIn($this->directory, $this->schema)->schemes(), 'no run here');
    }

    public function testARunsKeysAreFreshForEachAlgorithm(): void
    {
        // What create() measures with (FreshJwtKeys); ES256 for speed, where RSA's would be the same call.
        $scheme = JwtScheme::named('ES256');
        $keys = new FreshJwtKeys();
        self::assertNotSame($scheme->publishedJwk($keys->privateKey($scheme)), $scheme->publishedJwk($keys->privateKey($scheme)));
    }

    public function testTheProjectionLeavesOutTheKeygenCasesOnlyWhenEcKeygenComesBefore(): void
    {
        $quick = Profile::named('quick');
        self::assertSame(117, $this->experiment()->caseCount($quick), '13 algorithms: 4 payloads signed and verified, and keygen');
        self::assertSame(117, $this->experiment()->after(['aead', 'argon2'])->caseCount($quick));
        self::assertSame(107, $this->experiment()->after(['aead', 'ec_keygen'])->caseCount($quick), 'keygen of the HMAC secrets only');
        self::assertSame(107, $this->experiment()->after(['ec_keygen'])->caseCount(Profile::named('full')));
        self::assertSame('jwt', $this->experiment()->after(['ec_keygen'])->name());
    }
}
