<?php

declare(strict_types=1);

namespace PhpCryptoBench\Tests\Argon2;

use PhpCryptoBench\Argon2\Argon2Cell;
use PhpCryptoBench\Argon2\Argon2Experiment;
use PhpCryptoBench\Experiment\ExperimentSetup;
use PhpCryptoBench\Harness\Profile;
use PHPUnit\Framework\TestCase;
use PHPUnit\Framework\Attributes\DataProvider;

/** PHP's defaults and OWASP's minimum are measured in every profile, beside the grid (issue 14). */
final class NamedCellsTest extends TestCase
{
    /** @return iterable<string, array{string}> */
    public static function profiles(): iterable
    {
        yield 'quick' => ['quick'];
        yield 'full' => ['full'];
    }

    /** @dataProvider profiles */
    #[DataProvider('profiles')]
    public function testEveryProfileMeasuresPhpsDefaultsAndOwaspsMinimumThroughBothArgon2idInterfaces(string $profile): void
    {
        $cells = Argon2Experiment::create(ExperimentSetup::forRepository(REPOSITORY))->cells(Profile::named($profile));
        $keys = array_map(static fn (Argon2Cell $cell): string => implode(' ', $cell->key()), $cells);

        foreach (['password_hash', 'sodium'] as $interface) {
            self::assertContains("$interface argon2id 65536 1 4", $keys, "PHP's defaults through $interface");
            self::assertContains("$interface argon2id 19456 1 2", $keys, "OWASP's minimum through $interface");
        }
        self::assertSame(count($keys), count(array_unique($keys)), 'no cell is measured twice');
    }

    public function testPhpsDefaultsComeFromThisPhpsOwnConstants(): void
    {
        if (!defined('PASSWORD_ARGON2_DEFAULT_MEMORY_COST')) {
            self::markTestSkipped('this PHP has no Argon2 in password_hash');
        }
        $defaults = Argon2Experiment::namedCells()[0]->key();

        self::assertSame(['password_hash', 'argon2id', PASSWORD_ARGON2_DEFAULT_MEMORY_COST, PASSWORD_ARGON2_DEFAULT_THREADS, PASSWORD_ARGON2_DEFAULT_TIME_COST], array_values($defaults));
    }
}
