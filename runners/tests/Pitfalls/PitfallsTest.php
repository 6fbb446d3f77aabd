<?php

declare(strict_types=1);

namespace PhpCryptoBench\Tests\Pitfalls;

use PhpCryptoBench\Exception\VerificationFailed;
use PhpCryptoBench\Experiment\ExperimentContext;
use PhpCryptoBench\Experiment\ExperimentSetup;
use PhpCryptoBench\Harness\FakeTimer;
use PhpCryptoBench\Harness\Profile;
use PhpCryptoBench\Harness\Progress;
use PhpCryptoBench\Harness\Sampler;
use PhpCryptoBench\Io\CsvTable;
use PhpCryptoBench\Io\TableSchema;
use PhpCryptoBench\Native\FixedNativeSpeed;
use PhpCryptoBench\Native\InterleavedRounds;
use PhpCryptoBench\Pitfalls\AeadCallPerField;
use PhpCryptoBench\Pitfalls\DetailsPerOperation;
use PhpCryptoBench\Pitfalls\KeyConfigPerCall;
use PhpCryptoBench\Pitfalls\Pitfall;
use PhpCryptoBench\Pitfalls\PitfallCase;
use PhpCryptoBench\Pitfalls\PitfallsExperiment;
use PhpCryptoBench\Pitfalls\PssPaddingInPhp;
use PHPUnit\Framework\TestCase;
use ReflectionFunction;
use PHPUnit\Framework\Attributes\DataProvider;

final class PitfallsTest extends TestCase
{
    private static ?PitfallsExperiment $experiment = null;

    /**
     * The experiment these tests measure, and whose pitfalls they check one by one, made once for the
     * class: three of its pitfalls make an RSA-2048 key (a tenth of a CPU-second and more), and none of
     * these tests is about a fresh key.
     */
    private static function experiment(): PitfallsExperiment
    {
        return self::$experiment ??= PitfallsExperiment::create(ExperimentSetup::forRepository(REPOSITORY));
    }

    private static function pitfall(string $name): Pitfall
    {
        $named = array_values(array_filter(self::experiment()->pitfalls(), static fn (Pitfall $pitfall): bool => $pitfall->name() === $name));
        self::assertCount(1, $named, "the experiment's pitfall $name");
        return $named[0];
    }

    /** @return iterable<string, array{string}> */
    public static function pitfalls(): iterable
    {
        yield 'PEM vs key object, RSA-2048' => ['pem-vs-object-rsa2048'];
        yield 'PEM vs key object, P-256' => ['pem-vs-object-p256'];
        yield 'details per operation' => [DetailsPerOperation::NAME];
        yield 'PSS in PHP vs an RSASSA-PSS key' => [PssPaddingInPhp::NAME];
        yield 'openssl.cnf per key' => [KeyConfigPerCall::NAME];
        yield 'an AEAD call per field vs per record' => [AeadCallPerField::NAME];
    }

    /** @dataProvider pitfalls */
    #[DataProvider('pitfalls')]
    public function testBothWaysAgreeAndEachTimedRunIsChecked(string $name): void
    {
        $pitfall = self::pitfall($name);
        self::assertStringStartsWith($pitfall->name() . ': ', $pitfall->agreement());
        [$slow, $fast] = $pitfall->variants();
        self::assertNotSame($slow->variant, $fast->variant);
        self::assertSame($slow->units, $fast->units, 'both ways do the same amount of work per call');
        foreach ([$slow, $fast] as $case) {
            $case->run(2);
            $case->verifyLastRun();
            self::assertSame($pitfall->name(), $case->pitfall);
        }
    }

    public function testAWrongResultFailsTheCheckWithItsReason(): void
    {
        $case = new PitfallCase('p', 'v', static fn (): int => 0, static fn (mixed $r): ?string => $r === 1 ? null : 'expected 1, got ' . $r);
        $case->run(3);
        $this->expectException(VerificationFailed::class);
        $this->expectExceptionMessage('p v: expected a result, the operation failed (expected 1, got 0)');
        $case->verifyLastRun();
    }

    public function testAKeyThatIsNotAP256PrivateKeyIsRefused(): void
    {
        self::assertNull(KeyConfigPerCall::problem(openssl_pkey_new(['private_key_type' => OPENSSL_KEYTYPE_EC, 'curve_name' => 'prime256v1'])));
        self::assertSame('expected a P-256 private key, got another key', KeyConfigPerCall::problem(openssl_pkey_new(['private_key_type' => OPENSSL_KEYTYPE_EC, 'curve_name' => 'secp384r1'])));
        self::assertSame('expected a P-256 private key, got bool', KeyConfigPerCall::problem(false));
    }

    public function testTheMinimalConfigurationMustExist(): void
    {
        $this->expectException(VerificationFailed::class);
        $this->expectExceptionMessage('expected the configuration file /nonexistent.cnf, found none');
        new KeyConfigPerCall('/nonexistent.cnf');
    }

    public function testOnlyTheAeadPitfallHasANativeCounterpart(): void
    {
        self::assertSame('aes-256-gcm', self::aeadCallPerField()->native()?->name);
        self::assertSame(16, self::aeadCallPerField()->native()?->blockBytes);
        self::assertNull(self::pitfall(DetailsPerOperation::NAME)->native());
    }

    public function testTheAeadPitfallTimesTheFunctionsOfTheSnippetThePageShows(): void
    {
        [$slow, $fast] = self::aeadCallPerField()->variants();
        $perField = $slow->once();
        $perRecord = $fast->once();

        self::assertIsArray($perField);
        self::assertCount(AeadCallPerField::FIELDS, $perField, 'one sealed message per field');
        self::assertSame([12 + 16 + AeadCallPerField::FIELD_BYTES], array_values(array_unique(array_map('strlen', $perField))), 'a nonce, a tag and the field');
        self::assertIsString($perRecord);
        self::assertSame(12 + 16 + AeadCallPerField::FIELDS * (4 + AeadCallPerField::FIELD_BYTES), strlen($perRecord), 'one nonce and tag, each field length-prefixed');
        self::assertStringContainsString('record_seal_field_by_field(', (string) file_get_contents(REPOSITORY . '/' . AeadCallPerField::SNIPPET));
        self::assertSame(realpath(REPOSITORY . '/' . AeadCallPerField::SNIPPET), (new ReflectionFunction('record_seal'))->getFileName(), 'the functions timed are the snippet\'s');
    }

    public function testAMissingSnippetIsNamed(): void
    {
        $this->expectException(VerificationFailed::class);
        $this->expectExceptionMessage('aead-call-per-field: expected a result, the operation failed (expected the snippet /nonexistent/record-in-one-call.php, found none)');
        new AeadCallPerField('/nonexistent/record-in-one-call.php');
    }

    public function testTheExperimentMeasuresBothWaysInRoundsWithTheNativeFigure(): void
    {
        $directory = sys_get_temp_dir() . '/pcb-pitfalls-' . bin2hex(random_bytes(4));
        mkdir($directory);
        $experiment = self::experiment();
        $profile = Profile::named('quick')->forFakeClock();
        $context = new ExperimentContext($profile, new Sampler(new FakeTimer(), $profile), new Progress(fopen('php://memory', 'w+b')), new FixedNativeSpeed(), $directory, true, 2);

        self::assertCount(6, $experiment->verify()['agreement']);
        $result = $experiment->measure($context);

        self::assertSame(['pitfalls.csv', 'pitfalls_native.csv'], $result->files);
        self::assertSame([], $result->gaps);
        $schema = TableSchema::load(REPOSITORY . '/data/schema/tables');
        $rows = CsvTable::read($directory . '/pitfalls.csv', $schema->columns('pitfalls.csv'));
        $native = CsvTable::read($directory . '/pitfalls_native.csv', $schema->columns('pitfalls_native.csv'));
        array_map('unlink', glob($directory . '/*') ?: []);
        rmdir($directory);

        $cases = array_unique(array_map(static fn (array $r): string => $r['pitfall'] . '/' . $r['variant'], $rows));
        self::assertCount(12, $cases, 'six pitfalls, two ways each');
        $rounds = array_map('strval', range(0, InterleavedRounds::forProfile($profile)->rounds - 1));
        self::assertSame($rounds, array_values(array_unique(array_column($rows, 'round'))));
        self::assertSame($rounds, array_column($native, 'round'), 'one native figure per round');
        $fieldRows = array_filter($rows, static fn (array $r): bool => $r['pitfall'] === AeadCallPerField::NAME);
        self::assertSame(['call-per-field', 'call-per-record'], array_values(array_unique(array_column($fieldRows, 'variant'))));
        self::assertSame(['64'], array_values(array_unique(array_column($fieldRows, 'units'))));
        self::assertSame(['aes-256-gcm'], array_values(array_unique(array_column($fieldRows, 'native'))));
        self::assertSame(['aes-256-gcm'], array_values(array_unique(array_column($native, 'primitive'))));
    }

    public function testWithoutNativeBothWaysAreStillMeasuredInRoundsAndTheNativeTableIsNeitherWrittenNorListed(): void
    {
        $directory = sys_get_temp_dir() . '/pcb-pitfalls-' . bin2hex(random_bytes(4));
        mkdir($directory);
        $experiment = self::experiment();
        $profile = Profile::named('quick')->forFakeClock()->withoutNative();
        $context = new ExperimentContext($profile, new Sampler(new FakeTimer(), $profile), new Progress(fopen('php://memory', 'w+b')), new FixedNativeSpeed(), $directory, true, 2);

        $experiment->verify();
        $result = $experiment->measure($context);
        $written = array_map('basename', glob($directory . '/*') ?: []);
        $rows = CsvTable::read($directory . '/pitfalls.csv', TableSchema::load(REPOSITORY . '/data/schema/tables')->columns('pitfalls.csv'));
        array_map('unlink', glob($directory . '/*') ?: []);
        rmdir($directory);

        self::assertSame(['pitfalls.csv'], $result->files);
        self::assertSame(['pitfalls.csv'], $written);
        self::assertSame([InterleavedRounds::NATIVE_LEFT_OUT], $result->gaps);
        self::assertCount(12, array_unique(array_map(static fn (array $r): string => $r['pitfall'] . '/' . $r['variant'], $rows)), 'six pitfalls, two ways each');
    }

    private static function aeadCallPerField(): AeadCallPerField
    {
        return new AeadCallPerField(REPOSITORY . '/' . AeadCallPerField::SNIPPET);
    }
}
