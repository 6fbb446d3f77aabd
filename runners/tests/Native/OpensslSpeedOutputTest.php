<?php

declare(strict_types=1);

namespace PhpCryptoBench\Tests\Native;

use PhpCryptoBench\Exception\NativeSpeedFailed;
use PhpCryptoBench\Native\NativeMeasurement;
use PhpCryptoBench\Native\NativePrimitive;
use PhpCryptoBench\Native\OpensslSpeedCommand;
use PhpCryptoBench\Native\OpensslSpeedOutput;
use PHPUnit\Framework\TestCase;
use PHPUnit\Framework\Attributes\DataProvider;

/** `openssl speed -mr` outputs captured on a real machine (fixtures/README.md), read or refused. */
final class OpensslSpeedOutputTest extends TestCase
{
    private static function speedOutput(string $name): string
    {
        return (string) file_get_contents(__DIR__ . '/fixtures/' . $name . '.txt');
    }

    /** @return iterable<string, array{string, NativePrimitive, list<array{string, int}>}> */
    public static function captured(): iterable
    {
        yield 'RSA-2048' => ['rsa2048', NativePrimitive::publicKey('rsa2048'), [['sign', 2835], ['verify', 51203]]];
        yield 'ECDSA P-384' => ['ecdsap384', NativePrimitive::publicKey('ecdsap384'), [['sign', 1331], ['verify', 1289]]];
        yield 'ECDH P-256' => ['ecdhp256', NativePrimitive::publicKey('ecdhp256'), [['derive', 16177]]];
        yield 'X25519' => ['ecdhx25519', NativePrimitive::publicKey('ecdhx25519'), [['derive', 26628]]];
        yield 'Ed25519' => ['ed25519', NativePrimitive::publicKey('ed25519'), [['sign', 23947], ['verify', 9007]]];
        yield 'HMAC-SHA-256 on 150 B' => ['hmac-sha256-150', NativePrimitive::hmac('sha256', 150), [['mac', 2720792]]];
        yield 'AES-256-GCM on 16 KiB' => ['aes-256-gcm-16384', NativePrimitive::cipher('aes-256-gcm', 16384), [['encrypt', 254689]]];
        yield 'AES-128-CBC decryption on 16 B' => ['aes-128-cbc-16-decrypt', NativePrimitive::cipher('aes-128-cbc', 16, true), [['decrypt', 57317594]]];
        yield 'Blowfish through the legacy provider' => ['bf-cbc-4096-legacy', NativePrimitive::cipher('bf-cbc', 4096), [['encrypt', 30600]]];
        yield 'RSA-2048 in the layout of OpenSSL 3.2+' => ['rsa2048-3.2-layout', NativePrimitive::publicKey('rsa2048'), [['sign', 2812], ['verify', 50911]]];
        // OpenSSL 3.5 measures RSA again through the signature interface (+DTP:rsa2048:signs): the classic section counts.
        yield 'RSA-2048 measured twice by OpenSSL 3.5' => ['rsa2048-openssl-3.5', NativePrimitive::publicKey('rsa2048'), [['sign', 4811], ['verify', 77584]]];
    }

    /**
     * @dataProvider captured
     * @param list<array{string, int}> $expected operation and count
     */
    #[DataProvider('captured')]
    public function testEachOperationIsReadWithItsCountAndTime(string $file, NativePrimitive $primitive, array $expected): void
    {
        $measurements = OpensslSpeedCommand::measurements($primitive, 'openssl speed …', self::speedOutput($file), 'OpenSSL 3.0.19');

        self::assertSame($expected, array_map(static fn (NativeMeasurement $m): array => [$m->operation, $m->operations], $measurements));
        foreach ($measurements as $measurement) {
            self::assertSame(1_000_000_000, $measurement->elapsedNs, 'openssl speed -seconds 1 measured one second');
            self::assertSame($primitive->name, $measurement->primitive);
            self::assertSame($primitive->blockBytes, $measurement->blockBytes);
        }
    }

    /** @return iterable<string, array{string, NativePrimitive, list<array{string, int, int}>}> */
    public static function capturedOpenssl35(): iterable
    {
        yield 'ML-DSA-65 (its key generation is not asked for)' => ['ML-DSA-65', NativePrimitive::publicKey('ML-DSA-65'), [['sign', 421, 1_000_000_000], ['verify', 3166, 1_000_000_000]]];
        yield 'ML-KEM-768' => ['ML-KEM-768', NativePrimitive::publicKey('ML-KEM-768'), [['keygen', 7079, 1_000_000_000], ['encaps', 11890, 1_000_000_000], ['decaps', 8546, 1_010_000_000]]];
    }

    /**
     * OpenSSL 3.5 announces ML-DSA and ML-KEM by name and operation (+DTP:ML-DSA-65:signs:1).
     *
     * @dataProvider capturedOpenssl35
     * @param list<array{string, int, int}> $expected operation, count and nanoseconds
     */
    #[DataProvider('capturedOpenssl35')]
    public function testOpenssl35sPostQuantumAlgorithmsAreReadByOperation(string $file, NativePrimitive $primitive, array $expected): void
    {
        $measurements = OpensslSpeedCommand::measurements($primitive, 'openssl speed …', self::speedOutput($file), 'OpenSSL 3.5.9');

        self::assertSame($expected, array_map(static fn (NativeMeasurement $m): array => [$m->operation, $m->operations, $m->elapsedNs], $measurements));
        self::assertSame(['openssl', 'speed', '-elapsed', '-mr', '-seconds', '1', $primitive->name], OpensslSpeedCommand::command('openssl', $primitive));
    }

    public function testASignatureAlgorithmsKeyGenerationIsNotItsSignature(): void
    {
        $results = OpensslSpeedOutput::results(self::speedOutput('ML-DSA-65'), NativePrimitive::publicKey('ML-DSA-65'));
        self::assertSame(['sign', 'verify'], array_column($results, 'operation'), 'keygen (+R18) is neither');
        self::assertSame([], OpensslSpeedOutput::results(self::speedOutput('ML-KEM-768'), NativePrimitive::publicKey('ML-DSA-65')), 'a KEM has no signatures');
    }

    public function testOtherOperationsOfNewerOpensslAreSkippedNotMistakenForSignatures(): void
    {
        $results = OpensslSpeedOutput::results(self::speedOutput('rsa2048-3.2-layout'), NativePrimitive::publicKey('rsa2048'));
        self::assertSame(['sign', 'verify'], array_column($results, 'operation'), 'RSA encrypt (+R3) and decrypt (+R4) are not sign or verify');
    }

    public function testTheHumanReadableTableGivesNoMachineReadableResult(): void
    {
        self::assertSame([], OpensslSpeedOutput::results(self::speedOutput('rsa2048-human-readable'), NativePrimitive::publicKey('rsa2048')));
    }

    public function testACipherTheToolCannotLoadIsAGapThatQuotesItsError(): void
    {
        $this->expectException(NativeSpeedFailed::class);
        $this->expectExceptionMessage('openssl speed -evp bf-cbc: expected a result for encrypt, got "Couldn\'t init the context"');
        OpensslSpeedCommand::measurements(NativePrimitive::cipher('bf-cbc', 16), 'openssl speed -evp bf-cbc', self::speedOutput('bf-cbc-without-legacy'), 'OpenSSL 3.0.19');
    }

    public function testAnAlgorithmTheToolDoesNotKnowIsAGap(): void
    {
        $this->expectException(NativeSpeedFailed::class);
        $this->expectExceptionMessage('expected a result for sign and verify, got "speed: Unknown algorithm ecdsap999"');
        OpensslSpeedCommand::measurements(NativePrimitive::publicKey('ecdsap999'), 'openssl speed ecdsap999', self::speedOutput('unknown-algorithm'), 'OpenSSL 3.0.19');
    }

    public function testHalfAResultSaysWhichHalfItGot(): void
    {
        $signOnly = "+DTP:2048:private:rsa:1\n+R1:2835:2048:1.00\nRSA verify failure.  No RSA verify will be done.\n";
        $this->expectException(NativeSpeedFailed::class);
        $this->expectExceptionMessage('expected a result for sign and verify, got only sign; "RSA verify failure.  No RSA verify will be done."');
        OpensslSpeedCommand::measurements(NativePrimitive::publicKey('rsa2048'), 'openssl speed rsa2048', $signOnly, 'v');
    }

    public function testTwoResultsForOneOperationAreRefusedRatherThanOneChosen(): void
    {
        $twice = self::speedOutput('ecdhp256') . self::speedOutput('ecdhp256');
        $this->expectException(NativeSpeedFailed::class);
        $this->expectExceptionMessage('expected one result for derive, got several');
        OpensslSpeedCommand::measurements(NativePrimitive::publicKey('ecdhp256'), 'openssl speed ecdhp256', $twice, 'v');
    }

    public function testAResultWithoutItsAnnouncementOrWithAZeroTimeIsSkipped(): void
    {
        $output = "+R1:2835:2048:1.00\n+DTP:2048:public:rsa:1\n+R2:5:2048:0.00\n";
        self::assertSame([], OpensslSpeedOutput::results($output, NativePrimitive::publicKey('rsa2048')));
    }

    public function testTheCommandIsMachineReadableElapsedAndOneSecondPerOperation(): void
    {
        self::assertSame(
            ['openssl', 'speed', '-elapsed', '-mr', '-seconds', '1', '-evp', 'aes-256-ccm', '-bytes', '16384', '-decrypt'],
            OpensslSpeedCommand::command('openssl', NativePrimitive::cipher('aes-256-ccm', 16384, true)),
        );
        self::assertSame(['openssl', 'speed', '-elapsed', '-mr', '-seconds', '1', '-hmac', 'sha384', '-bytes', '200'], OpensslSpeedCommand::command('openssl', NativePrimitive::hmac('sha384', 200)));
    }

    /** @return iterable<string, array{callable(): NativePrimitive}> */
    public static function badNames(): iterable
    {
        yield 'a shell word as a cipher' => [static fn () => NativePrimitive::cipher('aes; rm -rf', 16)];
        yield 'a zero block' => [static fn () => NativePrimitive::cipher('aes-128-cbc', 0)];
        yield 'an HMAC digest that is an option' => [static fn () => NativePrimitive::hmac('-engine', 16)];
        yield 'an unknown public-key name' => [static fn () => NativePrimitive::publicKey('dsa2048')];
        yield 'an ML-DSA parameter set FIPS 204 does not define' => [static fn () => NativePrimitive::publicKey('ML-DSA-66')];
        yield 'ML-KEM in lower case, which openssl speed does not know' => [static fn () => NativePrimitive::publicKey('ml-kem-768')];
    }

    /** @dataProvider badNames */
    #[DataProvider('badNames')]
    public function testNamesTheToolCouldMisreadAreRefused(callable $make): void
    {
        $this->expectException(NativeSpeedFailed::class);
        $make();
    }

    public function testTheRealToolMeasuresWhenItIsThere(): void
    {
        if (trim((string) shell_exec('command -v openssl')) === '') {
            self::markTestSkipped('no openssl command on PATH');
        }
        [$measurement] = (new OpensslSpeedCommand(1))->measure(NativePrimitive::hmac('sha256', 64));
        self::assertSame('mac', $measurement->operation);
        self::assertGreaterThan(0, $measurement->operations);
        self::assertStringStartsWith('OpenSSL ', $measurement->toolVersion);
        self::assertSame('openssl speed -elapsed -mr -seconds 1 -hmac sha256 -bytes 64', $measurement->command);
    }
}
