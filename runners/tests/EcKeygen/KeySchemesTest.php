<?php

declare(strict_types=1);

namespace PhpCryptoBench\Tests\EcKeygen;

use PhpCryptoBench\EcKeygen\CurveEntry;
use PhpCryptoBench\EcKeygen\CurveProbe;
use PhpCryptoBench\EcKeygen\ExplicitParameters;
use PhpCryptoBench\EcKeygen\KeyCheck;
use PhpCryptoBench\EcKeygen\KeyOperationCase;
use PhpCryptoBench\EcKeygen\KeyScheme;
use PhpCryptoBench\EcKeygen\KnownAnswers;
use PhpCryptoBench\EcKeygen\RsaScheme;
use PhpCryptoBench\EcKeygen\SodiumCurve25519;
use PhpCryptoBench\Exception\KeyOperationFailed;
use PhpCryptoBench\Exception\VerificationFailed;
use PhpCryptoBench\Tests\Support\BrokenKeyScheme;
use PhpCryptoBench\Tests\Support\SharedKeys;
use PHPUnit\Framework\TestCase;
use PHPUnit\Framework\Attributes\DataProvider;

final class KeySchemesTest extends TestCase
{
    private static function probe(string $curve): CurveEntry
    {
        return (new CurveProbe(new ExplicitParameters()))->probe($curve);
    }

    public function testAProbedCurveCarriesSizesFromItsKeyNotItsName(): void
    {
        $entry = self::probe('c2pnb208w1');
        self::assertSame(CurveEntry::OK, $entry->status);
        self::assertSame(208, $entry->fieldBits);
        self::assertSame(193, $entry->orderBits, 'the cofactor makes the group order much shorter than the field');
        self::assertSame(['sign', 'verify', 'derive'], $entry->operations);
        self::assertSame(['interface' => 'openssl', 'curve' => 'c2pnb208w1', 'family' => 'c2pnb', 'organization' => 'ANSI X9.62', 'field_bits' => 208, 'key_bits' => 193, 'security_bits' => 80], $entry->scheme()?->describe());
    }

    public function testSm2KeysAreGeneratedButCannotBeCheckedSoAreNotTimed(): void
    {
        $entry = self::probe('SM2');
        self::assertSame(CurveEntry::UNVERIFIABLE, $entry->status);
        self::assertStringContainsString('cannot be checked', $entry->detail);
        self::assertNull($entry->scheme());
        self::assertSame('keygen', $entry->toRow()['operations']);
    }

    public function testOakleyCurvesAreUnsupportedWithOpensslsReason(): void
    {
        $entry = self::probe('Oakley-EC2N-3');
        self::assertSame(CurveEntry::UNSUPPORTED, $entry->status);
        self::assertStringContainsString('missing OID', $entry->detail);
        self::assertSame('', $entry->toRow()['operations']);
    }

    /**
     * The key the cases other than keygen use: one the scheme makes, or the suite's RSA-2048 key
     * (SharedKeys; making one costs a tenth of a CPU-second and more, and the keygen case makes its own).
     *
     * @return iterable<string, array{KeyScheme, mixed}>
     */
    public static function schemes(): iterable
    {
        yield 'P-256' => [self::probe('prime256v1')->scheme(), null];
        yield 'RSA-2048' => [new RsaScheme(2048), SharedKeys::rsa(2048)];
        yield 'Ed25519' => [SodiumCurve25519::ed25519(), null];
        yield 'X25519' => [SodiumCurve25519::x25519(), null];
    }

    /** @dataProvider schemes */
    #[DataProvider('schemes')]
    public function testAGoodKeyPassesItsCheckAndEveryOperationVerifies(KeyScheme $scheme, mixed $key): void
    {
        $key ??= $scheme->generate();
        self::assertNull(KeyCheck::mismatch($scheme, $key));
        foreach ($scheme->operations() as $operation) {
            // One checked key for every case: the keygen case's run() makes and checks its own keys,
            // the others sign, verify and derive with this one.
            $case = new KeyOperationCase($scheme, $operation, $key);
            $case->run(2);
            $case->verifyLastRun();
            self::assertSame($operation, $case->key()['operation']);
        }
    }

    public function testAKeyThatDoesNotVerifyItsOwnSignatureFailsTheCheck(): void
    {
        $mismatch = KeyCheck::mismatch(new BrokenKeyScheme(), 'a key');
        self::assertSame('expected its signature to verify with its public key, it did not', $mismatch);
    }

    public function testKeyGenerationIsNotCountedWhenOneOfItsKeysIsBad(): void
    {
        $case = new KeyOperationCase(new BrokenKeyScheme(brokenFromKey: 3), KeyScheme::KEYGEN, 'a good key');
        $case->run(2);
        $case->verifyLastRun();
        $case->run(2);
        $this->expectException(VerificationFailed::class);
        $this->expectExceptionMessage('broken keygen: expected a result, the operation failed (key 1 of 2: expected its signature to verify');
        $case->verifyLastRun();
    }

    public function testAVerifyCaseRefusesASchemeThatAcceptsAnyMessage(): void
    {
        $this->expectException(VerificationFailed::class);
        $this->expectExceptionMessage('broken: expected rejection of a signature over another message');
        new KeyOperationCase(new BrokenKeyScheme(acceptsEverything: true), KeyScheme::VERIFY, 'a key');
    }

    public function testAnOperationTheSchemeLacksIsRefused(): void
    {
        $this->expectException(VerificationFailed::class);
        $this->expectExceptionMessage('Ed25519 derive: expected a result, the operation failed (the scheme does not offer it)');
        new KeyOperationCase(SodiumCurve25519::ed25519(), KeyScheme::DERIVE);
    }

    public function testRsaUnder2048BitsIsNeverGenerated(): void
    {
        $this->expectException(KeyOperationFailed::class);
        $this->expectExceptionMessage('RSA-1024: expected key generation to succeed, it failed: expected at least 2048 bits, got 1024');
        new RsaScheme(1024);
    }

    public function testTheRfcKnownAnswersAndWycheproofEd25519VectorsPass(): void
    {
        $report = (new KnownAnswers(REPOSITORY . '/vectors/wycheproof'))->run();
        self::assertCount(2, $report['known_answers']);
        self::assertSame('ed25519_test.json', $report['vectors'][0]['source']);
        self::assertSame(151, $report['vectors'][0]['passed']);
        self::assertSame(0, $report['vectors'][0]['skipped']);
    }
}
