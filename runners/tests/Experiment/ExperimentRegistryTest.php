<?php

declare(strict_types=1);

namespace PhpCryptoBench\Tests\Experiment;

use PhpCryptoBench\Exception\BrokenExperiment;
use PhpCryptoBench\Experiment\Experiment;
use PhpCryptoBench\Experiment\ExperimentRegistry;
use PhpCryptoBench\Experiment\ExperimentSetup;
use PhpCryptoBench\Sample\SampleExperiment;
use PhpCryptoBench\Tests\Support\DeclaredExperiments;
use PHPUnit\Framework\TestCase;

/** Experiments are found from runners/src/<Namespace>/<Name>Experiment.php; nothing lists them. */
final class ExperimentRegistryTest extends TestCase
{
    private const FIXTURES = __DIR__ . '/Fixtures';

    private static function discover(string ...$extra): ExperimentRegistry
    {
        return ExperimentRegistry::discover(ExperimentSetup::forRepository(REPOSITORY), REPOSITORY . '/runners/src', ...$extra);
    }

    public function testTheDeclaredExperimentsAreFoundInOrderOfName(): void
    {
        self::assertNotSame([], DeclaredExperiments::names());
        self::assertSame(DeclaredExperiments::names(), self::discover()->names());
    }

    public function testARunThatNamesNoOrderMeasuresArgon2LastAndOneThatNamesOneKeepsIt(): void
    {
        $registry = self::discover();
        $names = static fn (array $experiments): array => array_map(static fn (Experiment $e): string => $e->name(), $experiments);
        $default = $names($registry->select(null));

        self::assertSame('argon2', end($default), 'it takes what the others leave of the budget');
        self::assertSame(array_values(array_diff($registry->names(), ['argon2'])), array_slice($default, 0, -1), 'the others by name');
        self::assertSame(['argon2', 'aead', 'jwt'], $names($registry->select(['argon2', 'aead', 'jwt'])), 'make bench-repeat rotates the order it names');
    }

    public function testEachIsBuiltByItsFactoryAndAnsweringToItsName(): void
    {
        $registry = self::discover();
        foreach ($registry->names() as $name) {
            self::assertSame($name, $registry->get($name)->name());
        }
        self::assertSame('PhpCryptoBench\Argon2\Argon2Experiment', $registry->get('argon2')::class);
    }

    public function testAnotherSourceDirectoryAddsItsExperimentsAndSkipsClassesThatAreNotOnes(): void
    {
        // good/ also holds Helper/HelperExperiment (implements nothing) and Abstracted/AbstractedExperiment (abstract).
        $registry = self::discover(self::FIXTURES . '/good');
        self::assertSame(DeclaredExperiments::names('b_sample'), $registry->names(), 'by name, not by directory');
        $sample = $registry->get('b_sample');
        self::assertInstanceOf(SampleExperiment::class, $sample);
        self::assertSame(REPOSITORY, $sample->repository, 'built by its create() from the setup');
    }

    public function testTheOrderIsTheSameWhicheverDirectoryComesFirst(): void
    {
        $setup = ExperimentSetup::forRepository(REPOSITORY);
        self::assertSame(
            ExperimentRegistry::discover($setup, REPOSITORY . '/runners/src', self::FIXTURES . '/good')->names(),
            ExperimentRegistry::discover($setup, self::FIXTURES . '/good', REPOSITORY . '/runners/src')->names(),
        );
    }

    public function testAFactoryThatFailsNamesTheClassAndTheReason(): void
    {
        $this->expectException(BrokenExperiment::class);
        $this->expectExceptionMessage('experiment class PhpCryptoBench\Faulty\FaultyExperiment could not be built by PhpCryptoBench\Faulty\FaultyExperiment::create(): RuntimeException: no vectors under ' . REPOSITORY);
        self::discover(self::FIXTURES . '/broken');
    }

    public function testTwoExperimentsWithOneNameAreRefused(): void
    {
        $this->expectException(BrokenExperiment::class);
        $this->expectExceptionMessage('experiment name "aead" is used by both PhpCryptoBench\Aead\AeadExperiment and PhpCryptoBench\Twin\TwinExperiment; expected one class per name');
        self::discover(self::FIXTURES . '/duplicate');
    }

    public function testAFileThatDoesNotDeclareTheClassItsNamePromisesIsRefused(): void
    {
        $this->expectException(BrokenExperiment::class);
        $this->expectExceptionMessage('Wrong/WrongExperiment.php is named like an experiment, so it should declare PhpCryptoBench\Wrong\WrongExperiment; it does not');
        self::discover(self::FIXTURES . '/mismatch');
    }

    public function testAMisnamedFileIsRefusedEveryTimeNotOnlyTheFirst(): void
    {
        // The file is loaded once; a second discovery must report it again rather than load it twice.
        foreach ([1, 2] as $attempt) {
            try {
                self::discover(self::FIXTURES . '/mismatch');
                self::fail("attempt $attempt: expected BrokenExperiment");
            } catch (BrokenExperiment $e) {
                self::assertStringContainsString('should declare PhpCryptoBench\Wrong\WrongExperiment', $e->getMessage());
            }
        }
    }
}
