<?php

declare(strict_types=1);

namespace PhpCryptoBench\Tests\Argon2;

use PhpCryptoBench\Argon2\Argon2Cell;
use PhpCryptoBench\Argon2\Argon2Experiment;
use PhpCryptoBench\Argon2\Argon2Hasher;
use PhpCryptoBench\Argon2\Argon2Verifier;
use PhpCryptoBench\Argon2\Argon2Verifiers;
use PhpCryptoBench\Argon2\CellHasher;
use PhpCryptoBench\Argon2\CellMeasurement;
use PhpCryptoBench\Argon2\CellRows;
use PhpCryptoBench\Argon2\ModelledClock;
use PHPUnit\Framework\Attributes\DataProvider;
use PHPUnit\Framework\TestCase;

/**
 * Which implementation checks each cell's hashes (issue 48): another than the one that made them
 * wherever this PHP has one. The provider is given, not read from this PHP, so that both a libargon2
 * PHP (Debian's) and a libsodium one are covered on any host.
 */
final class Argon2VerifiersTest extends TestCase
{
    private const SAME = 'same';
    private const MIB = 1024;

    /** @return iterable<string, array{string|null, bool, string, string, int, array{string, string, string}|null}> */
    public static function cells(): iterable
    {
        $sodium = [Argon2Verifier::SODIUM_VERIFY, Argon2Verifier::LIBSODIUM, 'second'];
        $libargon2 = [Argon2Verifier::PASSWORD_VERIFY, Argon2Verifier::LIBARGON2, 'second'];
        // Debian: password_hash and the CLI are libargon2, so libsodium checks them, at any threads.
        yield 'libargon2 PHP, password_hash' => ['standard', true, 'password_hash', 'argon2id', 1, $sodium];
        yield 'libargon2 PHP, password_hash Argon2i' => ['standard', true, 'password_hash', 'argon2i', 1, $sodium];
        yield 'libargon2 PHP, password_hash p=2' => ['standard', true, 'password_hash', 'argon2id', 2, $sodium];
        yield 'libargon2 PHP, sodium' => ['standard', true, 'sodium', 'argon2id', 1, $libargon2];
        yield 'libargon2 PHP, CLI' => ['standard', true, 'cli', 'argon2i', 1, $sodium];
        yield 'libargon2 PHP, CLI p=2' => ['standard', true, 'cli', 'argon2i', 2, $sodium];
        yield 'libargon2 PHP, CLI Argon2d' => ['standard', true, 'cli', 'argon2d', 1, null];
        // A PHP built without libargon2: password_verify is libsodium, the very code of password_hash and sodium.
        yield 'libsodium PHP, password_hash' => ['sodium', true, 'password_hash', 'argon2id', 1, [Argon2Verifier::PASSWORD_VERIFY, Argon2Verifier::LIBSODIUM, self::SAME]];
        yield 'libsodium PHP, sodium' => ['sodium', true, 'sodium', 'argon2i', 1, [Argon2Verifier::PASSWORD_VERIFY, Argon2Verifier::LIBSODIUM, self::SAME]];
        yield 'libsodium PHP, CLI' => ['sodium', true, 'cli', 'argon2id', 1, [Argon2Verifier::PASSWORD_VERIFY, Argon2Verifier::LIBSODIUM, 'second']];
        yield 'libsodium PHP, CLI p=2' => ['sodium', true, 'cli', 'argon2i', 2, [Argon2Verifier::PASSWORD_VERIFY, Argon2Verifier::LIBSODIUM, 'second']];
        // Without the sodium extension, libargon2 is all there is: password_verify, the same implementation, even at p=2.
        yield 'no sodium, password_hash p=2' => ['standard', false, 'password_hash', 'argon2id', 2, [Argon2Verifier::PASSWORD_VERIFY, Argon2Verifier::LIBARGON2, self::SAME]];
        yield 'no sodium, CLI' => ['standard', false, 'cli', 'argon2i', 1, [Argon2Verifier::PASSWORD_VERIFY, Argon2Verifier::LIBARGON2, self::SAME]];
        // Without Argon2 in password_verify, only libsodium: a second implementation for the CLI, the same for sodium.
        yield 'no provider, sodium' => [null, true, 'sodium', 'argon2id', 1, [Argon2Verifier::SODIUM_VERIFY, Argon2Verifier::LIBSODIUM, self::SAME]];
        yield 'no provider, CLI' => [null, true, 'cli', 'argon2i', 2, $sodium];
        yield 'nothing to verify with' => [null, false, 'cli', 'argon2i', 1, null];
    }

    /**
     * @param array{string, string, string}|null $expected function, library, second or same
     * @dataProvider cells
     */
    #[DataProvider('cells')]
    public function testEachCellGetsAnotherImplementationWhereThisPhpHasOne(?string $provider, bool $sodium, string $interface, string $variant, int $threads, ?array $expected): void
    {
        $verifier = (new Argon2Verifiers($provider, $sodium))->for(Argon2Cell::of($interface, $variant, self::MIB, $threads, 3));
        if ($expected === null) {
            self::assertNull($verifier);
            return;
        }
        self::assertNotNull($verifier);
        self::assertSame($expected, [$verifier->function, $verifier->library, $verifier->isSecondImplementation() ? 'second' : self::SAME]);
    }

    public function testTheDescriptionSaysWhetherASecondImplementationLooked(): void
    {
        $cell = Argon2Cell::of('password_hash', 'argon2id', self::MIB, 1, 3);
        self::assertSame('sodium_crypto_pwhash_str_verify (libsodium), a second implementation', (new Argon2Verifiers('standard', true))->describeFor($cell));
        self::assertSame(
            'password_verify (libsodium), the implementation that made it: this PHP has no second implementation of Argon2 (PASSWORD_ARGON2_PROVIDER = sodium: password_verify is libsodium too)',
            (new Argon2Verifiers('sodium', true))->describeFor($cell),
        );
        self::assertStringContainsString('the sodium extension is not loaded', (new Argon2Verifiers('standard', false))->describeFor($cell));
        self::assertSame('not verified: nothing in PHP computes Argon2d (argon2-cffi checks it in the test suite)', (new Argon2Verifiers('standard', true))->describeFor(Argon2Cell::of('cli', 'argon2d', self::MIB, 1, 3)));
        self::assertStringStartsWith('not verified: ', (new Argon2Verifiers(null, false))->describeFor(Argon2Cell::of('cli', 'argon2i', self::MIB, 1, 3)));
    }

    /** @return iterable<string, array{string, string, int}> */
    public static function madeHashes(): iterable
    {
        foreach ([['password_hash', 'argon2id', 1], ['password_hash', 'argon2i', 2], ['sodium', 'argon2id', 1], ['sodium', 'argon2i', 1], ['cli', 'argon2i', 1], ['cli', 'argon2id', 4]] as [$interface, $variant, $threads]) {
            foreach ([Argon2Verifier::PASSWORD_VERIFY, Argon2Verifier::SODIUM_VERIFY] as $function) {
                yield "$interface $variant p=$threads, $function" => [$interface, $variant, $threads, $function];
            }
        }
    }

    /** @dataProvider madeHashes */
    #[DataProvider('madeHashes')]
    public function testEachVerifierAcceptsARealHashAndRejectsItTampered(string $interface, string $variant, int $threads, string $function): void
    {
        self::skipWithout($interface, $function);
        $cell = Argon2Cell::of($interface, $variant, self::MIB, $threads, 3);
        $hash = (new Argon2Hasher())->hash($cell);
        $verifier = new Argon2Verifier($function, $function === Argon2Verifier::SODIUM_VERIFY ? Argon2Verifier::LIBSODIUM : Argon2Verifier::LIBARGON2);
        self::assertTrue($verifier->accepts(Argon2Hasher::PASSWORD, $hash), $hash);
        self::assertFalse($verifier->accepts(Argon2Hasher::PASSWORD, self::tampered($hash)), 'a changed hash byte');
        self::assertFalse($verifier->accepts(Argon2Hasher::PASSWORD, str_replace(',t=3,', ',t=4,', $hash)), 'a changed time cost');
        self::assertFalse($verifier->accepts(Argon2Hasher::PASSWORD . 'x', $hash), 'another password');
    }

    public function testATamperedHashFailsTheCellWhicheverImplementationChecksIt(): void
    {
        foreach (self::verifierSettings() as $label => $verifiers) {
            foreach ([['password_hash', 'argon2id'], ['sodium', 'argon2id'], ['cli', 'argon2i']] as [$interface, $variant]) {
                $cell = Argon2Cell::of($interface, $variant, self::MIB, 1, 3);
                $honest = new Argon2Hasher('argon2', $verifiers);
                if ($verifiers->for($cell) === null || !self::canHash($interface)) {
                    continue;
                }
                $result = (new CellMeasurement(self::tampering($honest), new ModelledClock()))->measure($cell, 3, 0);
                self::assertSame('ok', $result['status'], "$label $interface");
                self::assertFalse($result['verified'], "$label $interface: the fake clock's one real hash, tampered, does not verify");
                $rows = CellRows::of($cell, 2, null, $result + ['verified_by' => $honest->verification($cell)]);
                self::assertFalse($rows[0]['verified'], "$label $interface");
                self::assertStringStartsWith('a hash rejected by ', (string) $rows[0]['detail']);
                self::assertTrue((new CellMeasurement($honest, new ModelledClock()))->measure($cell, 3, 0)['verified'], "$label $interface: untampered, it does");
            }
        }
    }

    public function testTheManifestSaysWhatChecksEachInterface(): void
    {
        $debian = Argon2Experiment::verifiers(new Argon2Hasher('argon2', new Argon2Verifiers('standard', true)), 'standard');
        self::assertSame([
            'password_hash argon2id: sodium_crypto_pwhash_str_verify (libsodium), a second implementation',
            'password_hash argon2i: sodium_crypto_pwhash_str_verify (libsodium), a second implementation',
            'sodium argon2id: password_verify (libargon2), a second implementation',
            'sodium argon2i: password_verify (libargon2), a second implementation',
            'cli argon2d: not verified: nothing in PHP computes Argon2d (argon2-cffi checks it in the test suite)',
            'cli argon2i: sodium_crypto_pwhash_str_verify (libsodium), a second implementation',
        ], $debian);
        $noSodium = Argon2Experiment::verifiers(new Argon2Hasher('argon2', new Argon2Verifiers('standard', false)), 'standard');
        self::assertStringStartsWith('password_hash argon2id: password_verify (libargon2), the implementation that made it', $noSodium[0]);
        $libsodium = Argon2Experiment::verifiers(new Argon2Hasher('argon2', new Argon2Verifiers('sodium', true)), 'sodium');
        self::assertStringStartsWith('password_hash argon2id: password_verify (libsodium), the implementation that made it', $libsodium[0]);
        self::assertStringStartsWith('sodium argon2id: password_verify (libsodium), the implementation that made it', $libsodium[2]);
        self::assertSame('cli argon2i: password_verify (libsodium), a second implementation', $libsodium[5]);
    }

    /** @return array<string, Argon2Verifiers> each verifier this PHP can run, as some PHP would pick it */
    private static function verifierSettings(): array
    {
        $settings = ['password_verify (libargon2) everywhere' => new Argon2Verifiers('standard', false)];
        if (extension_loaded('sodium')) {
            $settings['libsodium for libargon2 hashes'] = new Argon2Verifiers('standard', true);
            $settings['libsodium only'] = new Argon2Verifiers(null, true);
        }
        return $settings;
    }

    private static function tampering(Argon2Hasher $honest): CellHasher
    {
        return new class ($honest) implements CellHasher {
            public function __construct(private readonly Argon2Hasher $honest)
            {
            }

            public function hash(Argon2Cell $cell): string
            {
                return Argon2VerifiersTest::tampered($this->honest->hash($cell));
            }

            public function verify(Argon2Cell $cell, string $hash): ?bool
            {
                return $this->honest->verify($cell, $hash);
            }
        };
    }

    /**
     * The hash with the first character of its output changed: a well-formed PHC string of another
     * hash (not the last character, whose low bits are padding a decoder may ignore).
     */
    public static function tampered(string $hash): string
    {
        $at = strrpos($hash, '$') + 1;
        return substr_replace($hash, $hash[$at] === 'A' ? 'B' : 'A', $at, 1);
    }

    private static function skipWithout(string $interface, string $function): void
    {
        if (!self::canHash($interface)) {
            self::markTestSkipped("this PHP cannot hash through $interface");
        }
        if ($function === Argon2Verifier::SODIUM_VERIFY && !extension_loaded('sodium')) {
            self::markTestSkipped('no sodium extension');
        }
        if ($function === Argon2Verifier::PASSWORD_VERIFY && Argon2Cell::provider() === null) {
            self::markTestSkipped('password_verify has no Argon2 in this PHP');
        }
    }

    private static function canHash(string $interface): bool
    {
        return match ($interface) {
            'password_hash' => Argon2Cell::provider() === 'standard',
            'sodium' => extension_loaded('sodium'),
            default => trim((string) shell_exec('command -v argon2 2>/dev/null')) !== '',
        };
    }
}
