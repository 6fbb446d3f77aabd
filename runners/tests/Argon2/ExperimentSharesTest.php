<?php

declare(strict_types=1);

namespace PhpCryptoBench\Tests\Argon2;

use PhpCryptoBench\Argon2\Argon2Experiment;
use PHPUnit\Framework\TestCase;

/** The order in which Argon2's items share the experiment's share (Argon2Experiment::shares). */
final class ExperimentSharesTest extends TestCase
{
    public function testBcryptComesFirstAndWhatItDoesNotUseIsTheCells(): void
    {
        // 2,000 for one bcrypt cost (least 100, most 300), two cells (least 100, most 2,000) and rounds of 100.
        $shares = Argon2Experiment::shares(2_000, [100], [300], [100, 100], [2_000, 2_000], 100);
        self::assertSame(300, $shares->forNext(), "bcrypt's share: its most, which the cells' room leaves it");
        $shares->spent(100, 100); // its target reached with its least hashes
        // 1,900 left; 300 reserved for the least of the two cells and the rounds; 1,600 shared by the cells.
        // With bcrypt measured last, the first cell's share was 100 + 700: bcrypt's room (200) was held for
        // it, and what it did not use, at the end, was the experiment's time unspent.
        self::assertSame(100 + 800, $shares->forNext(), 'what bcrypt left goes to the cells');
        $shares->spent(900, 900);
        self::assertSame(900, $shares->forNext());
        $shares->spent(900, 900);
        self::assertSame(100, $shares->forNext(), 'the rounds: what they take');
    }

    public function testTheRoundsTakeTheirFixedWorkAndNoPartOfTheSurplus(): void
    {
        $shares = Argon2Experiment::shares(10_000, [], [], [100], [500], 1_000);
        self::assertSame(500, $shares->forNext(), 'the cell: its most');
        $shares->spent(500, 500);
        self::assertSame(1_000, $shares->forNext(), 'the rounds: their fixed work, though 9,500 is left');
    }
}
