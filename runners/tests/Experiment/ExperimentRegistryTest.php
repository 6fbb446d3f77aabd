<?php

declare(strict_types=1);

namespace PhpCryptoBench\Tests\Experiment;

use PhpCryptoBench\Exception\BrokenExperiment;
use PhpCryptoBench\Experiment\ExperimentRegistry;
use PhpCryptoBench\Experiment\ExperimentSetup;
use PHPUnit\Framework\TestCase;

/** Experiments are found from runners/src/<Namespace>/<Name>Experiment.php; nothing lists them. */
final class ExperimentRegistryTest extends TestCase
{
    private const FIXTURES = __DIR__ . '/Fixtures';

    private static function discover(string ...$extra): ExperimentRegistry
    {
        return ExperimentRegistry::discover(ExperimentSetup::forRepository(REPOSITORY), REPOSITORY . '/runners/src', ...$extra);
    }

    public function testTheFiveExperimentsAreFoundInOrderOfName(): void
    {
        self::assertSame(['aead', 'argon2', 'ec_keygen', 'jwt', 'symmetric'], self::discover()->names());
    }

    public function testAnotherSourceDirectoryAddsItsExperimentsAndSkipsClassesThatAreNotOnes(): void
    {
        $registry = self::discover(self::FIXTURES . '/good');
        self::assertSame(['aead', 'argon2', 'b_sample', 'ec_keygen', 'jwt', 'symmetric'], $registry->names());
        self::assertSame(REPOSITORY, $registry->get('b_sample')->repository ?? null, 'built by its create() from the setup');
    }

    public function testAFactoryThatFailsNamesTheClassAndTheReason(): void
    {
        $this->expectException(BrokenExperiment::class);
        $this->expectExceptionMessage('experiment class PhpCryptoBench\Faulty\FaultyExperiment could not be built by PhpCryptoBench\Faulty\FaultyExperiment::create(): no vectors under ' . REPOSITORY);
        self::discover(self::FIXTURES . '/broken');
    }

    public function testTwoExperimentsWithOneNameAreRefused(): void
    {
        $this->expectException(BrokenExperiment::class);
        $this->expectExceptionMessage('experiment name "aead" is used by both PhpCryptoBench\Aead\AeadExperiment and PhpCryptoBench\Twin\TwinExperiment');
        self::discover(self::FIXTURES . '/duplicate');
    }

    public function testAFileThatDoesNotDeclareTheClassItsNamePromisesIsRefused(): void
    {
        $this->expectException(BrokenExperiment::class);
        $this->expectExceptionMessage('Wrong/WrongExperiment.php is named like an experiment, so it should declare PhpCryptoBench\Wrong\WrongExperiment; it does not');
        self::discover(self::FIXTURES . '/mismatch');
    }
}
