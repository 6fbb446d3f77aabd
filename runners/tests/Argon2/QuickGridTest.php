<?php

declare(strict_types=1);

namespace PhpCryptoBench\Tests\Argon2;

use PhpCryptoBench\Argon2\Argon2Cell;
use PhpCryptoBench\Argon2\Argon2Experiment;
use PhpCryptoBench\Experiment\ExperimentSetup;
use PhpCryptoBench\Harness\Profile;
use PhpCryptoBench\Native\InterleavedRounds;
use PHPUnit\Framework\TestCase;

/** What the quick profile's Argon2 grid and rounds hold: the parameters' picks whole, the other variants at one thread. */
final class QuickGridTest extends TestCase
{
    /** @return array<string, list<Argon2Cell>> per "interface variant" */
    private static function cellsBySeries(string $profile): array
    {
        $experiment = Argon2Experiment::create(ExperimentSetup::forRepository(dirname(__DIR__, 3)));
        $series = [];
        foreach ($experiment->cells(Profile::named($profile)) as $cell) {
            $series[$cell->interface . ' ' . $cell->variant][] = $cell;
        }
        return $series;
    }

    public function testWithoutNativeToolsTheGridLeavesTheCliOutAndKeepsEveryPhpCell(): void
    {
        $experiment = Argon2Experiment::create(ExperimentSetup::forRepository(dirname(__DIR__, 3)));
        $with = $experiment->cells(Profile::named('quick'));
        $without = $experiment->cells(Profile::named('quick')->withoutNative());
        $php = array_values(array_filter($with, static fn (Argon2Cell $cell): bool => $cell->interface !== 'cli'));

        self::assertCount(8, array_filter($with, static fn (Argon2Cell $cell): bool => $cell->interface === 'cli'));
        self::assertEquals($php, $without);
    }

    public function testArgon2idThroughPasswordHashAndSodiumKeepsTheWhole2By2By2Grid(): void
    {
        $series = self::cellsBySeries('quick');
        $grid = static fn (Argon2Cell $cell): bool => in_array($cell->memoryKib, [16 * 1024, 64 * 1024], true) && in_array($cell->timeCost, [1, 3], true);
        self::assertCount(8, array_filter($series['password_hash argon2id'], $grid));
        self::assertCount(4, array_filter($series['sodium argon2id'], $grid), 'sodium has one thread count');
    }

    public function testTheOtherVariantsTakeOneThreadAtBothMemoriesAndTimeCosts(): void
    {
        $series = self::cellsBySeries('quick');
        foreach (['password_hash argon2i', 'sodium argon2i', 'cli argon2d', 'cli argon2i'] as $name) {
            self::assertCount(4, $series[$name], $name);
            self::assertSame([1], array_values(array_unique(array_map(static fn (Argon2Cell $cell): int => $cell->threads, $series[$name]))), $name);
        }
    }

    public function testTheFullProfileKeepsItsGrids(): void
    {
        $series = self::cellsBySeries('full');
        self::assertGreaterThanOrEqual(7 * 4 * 3, count($series['password_hash argon2id']));
        self::assertCount(4 * 3 * 2, $series['cli argon2d']);
    }

    public function testTheRoundsTakeAtLeastSixHashesInAllOverEitherProfilesRounds(): void
    {
        foreach (['quick', 'full'] as $profile) {
            $rounds = InterleavedRounds::forProfile(Profile::named($profile));
            self::assertGreaterThanOrEqual(Argon2Experiment::NATIVE_LEAST_HASHES, $rounds->rounds * Argon2Experiment::shortSamples($rounds), $profile);
        }
        self::assertSame(3, Argon2Experiment::shortSamples(new InterleavedRounds(2)));
        self::assertSame(2, Argon2Experiment::shortSamples(new InterleavedRounds(3)));
        self::assertSame(2, Argon2Experiment::shortSamples(new InterleavedRounds(5)));
    }

    public function testTheQuickProfilesRoundsSetOnlyArgon2idAgainstTheCli(): void
    {
        self::assertSame(['argon2id'], Argon2Experiment::NATIVE_VARIANTS['quick']);
        self::assertSame(['argon2id', 'argon2i'], Argon2Experiment::NATIVE_VARIANTS['full']);
    }
}
