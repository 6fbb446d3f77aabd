<?php

declare(strict_types=1);

namespace PhpCryptoBench\Tests\Io;

use PhpCryptoBench\Experiment\ExperimentRegistry;
use PhpCryptoBench\Experiment\ExperimentSetup;
use PHPUnit\Framework\TestCase;
use ReflectionClass;
use PHPUnit\Framework\Attributes\DataProvider;

/**
 * The schema files are the only list of tables: a class constant named *CSV is a reference to one,
 * and must name a table the experiment of its own namespace declares.
 */
final class TableReferencesTest extends TestCase
{
    /** @return array<string, array{string, string, string}> constant => [namespace, constant, file name] */
    public static function references(): array
    {
        $references = [];
        foreach (glob(REPOSITORY . '/runners/src/*/*.php') ?: [] as $file) {
            $namespace = basename(dirname($file));
            $class = new ReflectionClass('PhpCryptoBench\\' . $namespace . '\\' . basename($file, '.php'));
            foreach ($class->getConstants() as $constant => $value) {
                if (str_ends_with($constant, 'CSV') && is_string($value)) {
                    $references[$class->getShortName() . '::' . $constant] = [$namespace, $constant, $value];
                }
            }
        }
        return $references;
    }

    public function testTheRepositoryHasTableReferencesToCheck(): void
    {
        self::assertGreaterThanOrEqual(20, count(self::references()));
    }

    /** @dataProvider references */
    #[DataProvider('references')]
    public function testAReferenceNamesATableItsOwnExperimentDeclares(string $namespace, string $constant, string $file): void
    {
        $setup = ExperimentSetup::forRepository(REPOSITORY);
        $schema = $setup->schema;
        $owners = [];
        foreach (ExperimentRegistry::discover($setup, REPOSITORY . '/runners/src')->select(null) as $experiment) {
            $owners[(new ReflectionClass($experiment))->getNamespaceName()] = $experiment->name();
        }
        $experiment = $owners['PhpCryptoBench\\' . $namespace] ?? null;
        self::assertNotNull($experiment, sprintf('%s names %s, but namespace %s holds no experiment', $constant, $file, $namespace));
        self::assertContains($file, $schema->tablesOf($experiment), sprintf('%s names %s: expected a table of %s', $constant, $file, $experiment));
    }
}
