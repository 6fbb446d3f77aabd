<?php

declare(strict_types=1);

namespace PhpCryptoBench\Tests\Snippets;

use InvalidArgumentException;
use PHPUnit\Framework\Attributes\DataProvider;

/**
 * runners/snippets/bcrypt-cost-and-rehash.php: bcrypt at a cost of 10 or more, passwords bcrypt would
 * cut refused, a rehash on login when the stored hash has another cost or algorithm, and the cost loop.
 */
final class BcryptCostAndRehashTest extends SnippetTestCase
{
    private const PASSWORD = 'correct horse battery staple';

    /** bcrypt_hash(PASSWORD, 10), made once: two tests read it, and cost 10 is the least the snippet makes. */
    private static ?string $passwordAtCost10 = null;

    public static function snippet(): string
    {
        return 'bcrypt-cost-and-rehash.php';
    }

    private static function passwordAtCost10(): string
    {
        return self::$passwordAtCost10 ??= bcrypt_hash(self::PASSWORD, 10);
    }

    public function testAHashCarriesItsCostAndVerifies(): void
    {
        $hash = self::passwordAtCost10();
        self::assertStringStartsWith('$2y$10$', $hash);
        self::assertSame(60, strlen($hash));
        self::assertTrue(password_verify(self::PASSWORD, $hash));
        self::assertFalse(password_verify(self::PASSWORD . '!', $hash));
        self::assertFalse(password_needs_rehash($hash, PASSWORD_BCRYPT, ['cost' => 10]));
    }

    public function testAPasswordBcryptWouldCutIsRefusedAnd72BytesAreKept(): void
    {
        $hash = bcrypt_hash(str_repeat('a', 72), 10);
        self::assertTrue(password_verify(str_repeat('a', 72), $hash));
        // Why the limit: bcrypt itself would accept a 73rd byte and ignore it.
        self::assertTrue(password_verify(str_repeat('a', 72) . 'ignored', $hash));
        $this->expectException(InvalidArgumentException::class);
        $this->expectExceptionMessage('expected a password of at most 72 bytes for bcrypt, got 73 bytes');
        bcrypt_hash(str_repeat('a', 73), 10);
    }

    /** @return iterable<string, array{callable(): mixed, string}> */
    public static function costsOutsideTheRange(): iterable
    {
        yield 'hash at cost 9' => [static fn () => bcrypt_hash(self::PASSWORD, 9), "expected a bcrypt cost from 10 (OWASP's floor) to 31, got 9"];
        yield 'hash at cost 32' => [static fn () => bcrypt_hash(self::PASSWORD, 32), "expected a bcrypt cost from 10 (OWASP's floor) to 31, got 32"];
        yield 'login at cost 4' => [static fn () => bcrypt_login(self::PASSWORD, '$2y$04$' . str_repeat('a', 53), 4), "expected a bcrypt cost from 10 (OWASP's floor) to 31, got 4"];
        yield 'the loop from cost 8' => [static fn () => bcrypt_highest_cost(100.0, 8, 12), "expected a bcrypt cost from 10 (OWASP's floor) to 31, got 8"];
        yield 'the loop backwards' => [static fn () => bcrypt_highest_cost(100.0, 12, 11), 'expected the lowest cost first, got 12 to 11'];
        // A budget no cost fits: the loop would stop at once, so only the check can refuse.
        yield 'the loop up to cost 32' => [static fn () => bcrypt_highest_cost(0.001, 10, 32), "expected a bcrypt cost from 10 (OWASP's floor) to 31, got 32"];
    }

    /**
     * @dataProvider costsOutsideTheRange
     * @param callable(): mixed $call
     */
     #[DataProvider('costsOutsideTheRange')]
    public function testACostBelowOwaspsFloorOrAboveBcryptsIsRefused(callable $call, string $reason): void
    {
        $this->expectException(InvalidArgumentException::class);
        $this->expectExceptionMessage($reason);
        $call();
    }

    public function testLoginKeepsAHashOfTheCurrentCostAndRefusesAWrongPassword(): void
    {
        $stored = self::passwordAtCost10();
        self::assertSame($stored, bcrypt_login(self::PASSWORD, $stored, 10));
        self::assertNull(bcrypt_login('wrong password', $stored, 10));
    }

    /**
     * The current cost is the least each case allows (OWASP's floor of 10 where the stored hash is not
     * bcrypt above it): every bcrypt hash made or verified here costs twice as much per step of cost.
     * A raised cost starts from bcrypt's least, 4, made by password_hash() (the snippet refuses below 10):
     * the rehash turns on the cost differing, and from a stored cost of 10 the current one would be 11,
     * over three times this case's work.
     *
     * @return iterable<string, array{callable(): string, int}> a hash made otherwise than bcrypt at the current cost, and that cost
     */
    public static function oldHashes(): iterable
    {
        yield 'bcrypt at cost 4 (a cost raised since)' => [static fn (): string => password_hash(self::PASSWORD, PASSWORD_BCRYPT, ['cost' => 4]), 10];
        yield 'bcrypt at cost 11 (a cost lowered on purpose)' => [static fn (): string => bcrypt_hash(self::PASSWORD, 11), 10];
        yield 'MD5-crypt (older than bcrypt)' => [static fn (): string => crypt(self::PASSWORD, '$1$saltsalt$'), 10];
        yield 'SHA-512 crypt (older than bcrypt)' => [static fn (): string => crypt(self::PASSWORD, '$6$rounds=5000$saltsaltsalt$'), 10];
    }

    /**
     * @dataProvider oldHashes
     * @param callable(): string $make
     */
     #[DataProvider('oldHashes')]
    public function testLoginRehashesAtTheCurrentCostWhenTheStoredHashDiffers(callable $make, int $cost): void
    {
        $stored = $make();
        $kept = bcrypt_login(self::PASSWORD, $stored, $cost);
        self::assertNotNull($kept);
        self::assertNotSame($stored, $kept);
        self::assertStringStartsWith(sprintf('$2y$%02d$', $cost), $kept);
        self::assertTrue(password_verify(self::PASSWORD, $kept));
        self::assertNull(bcrypt_login('wrong password', $stored, $cost), 'a wrong password is refused, not rehashed');
    }

    /** @return iterable<string, array{callable(): string}> hashes of an algorithm stronger than bcrypt */
    public static function strongerHashes(): iterable
    {
        yield 'Argon2id' => [static fn (): string => password_hash(self::PASSWORD, PASSWORD_ARGON2ID, ['memory_cost' => 8192, 'time_cost' => 1, 'threads' => 1])];
        yield 'Argon2i' => [static fn (): string => password_hash(self::PASSWORD, PASSWORD_ARGON2I, ['memory_cost' => 8192, 'time_cost' => 1, 'threads' => 1])];
    }

    /**
     * @dataProvider strongerHashes
     * @param callable(): string $make
     */
    #[DataProvider('strongerHashes')]
    public function testLoginNeverRehashesAnArgon2HashDownToBcrypt(callable $make): void
    {
        $stored = $make();
        self::assertSame($stored, bcrypt_login(self::PASSWORD, $stored, 11));
        self::assertNull(bcrypt_login('wrong password', $stored, 11));
    }

    public function testAnOlderHashIsReplacedUpTo72BytesAndKeptBeyond(): void
    {
        // SHA-512 crypt (older than bcrypt, and no limit on the length): replaced while bcrypt can hold the password.
        $password = str_repeat('b', 72);
        $kept = bcrypt_login($password, crypt($password, '$6$rounds=5000$saltsaltsalt$'), 10);
        self::assertStringStartsWith('$2y$10$', (string) $kept);
        self::assertTrue(password_verify($password, (string) $kept));
        $longer = str_repeat('b', 73);
        $stored = crypt($longer, '$6$rounds=5000$saltsaltsalt$');
        self::assertSame($stored, bcrypt_login($longer, $stored, 10));
    }

    public function testAPasswordLongerThanBcryptReadsKeepsItsArgon2Hash(): void
    {
        $long = str_repeat('long passphrase ', 6);
        $stored = password_hash($long, PASSWORD_ARGON2ID, ['memory_cost' => 8192, 'time_cost' => 1, 'threads' => 1]);
        self::assertSame($stored, bcrypt_login($long, $stored, 10));
    }

    public function testCosts10To31AreBcryptsAndOwasps(): void
    {
        // Each end, where no hash is made: cost 31 would take days.
        self::assertNull(bcrypt_highest_cost(0.001, 10, 31), 'cost 31 is a cost; a budget no cost fits');
        bcrypt_check_cost(10);
        bcrypt_check_cost(31);
        $this->expectException(InvalidArgumentException::class);
        $this->expectExceptionMessage("expected a bcrypt cost from 10 (OWASP's floor) to 31, got 9");
        bcrypt_check_cost(9);
    }

    public function testALoginWithA72BytePasswordIsRehashedAndA73ByteOneKeepsItsHash(): void
    {
        // 72 bytes are what bcrypt reads: such a password can have its bcrypt hash at the new cost. The
        // old hash at bcrypt's least cost (4) and the new one at the snippet's (10): the cheapest raise.
        $password = str_repeat('a', 72);
        $kept = bcrypt_login($password, password_hash($password, PASSWORD_BCRYPT, ['cost' => 4]), 10);
        self::assertStringStartsWith('$2y$10$', (string) $kept);
        self::assertTrue(password_verify($password, (string) $kept));
        // One byte more: bcrypt_hash() would refuse it, and the Argon2id hash it has stays.
        $longer = str_repeat('a', 73);
        $stored = password_hash($longer, PASSWORD_ARGON2ID, ['memory_cost' => 8192, 'time_cost' => 1, 'threads' => 1]);
        self::assertSame($stored, bcrypt_login($longer, $stored, 10));
    }

    public function testWithoutARangeTheLoopRunsFromCost10To16(): void
    {
        // What the comment promises when no range is given: OWASP's floor, up to a cost of seconds.
        $parameters = (new \ReflectionFunction('bcrypt_highest_cost'))->getParameters();
        self::assertSame(['budgetMs', 'lowest', 'highest'], array_map(static fn (\ReflectionParameter $p): string => $p->getName(), $parameters));
        self::assertSame(10, $parameters[1]->getDefaultValue());
        self::assertSame(16, $parameters[2]->getDefaultValue());
        self::assertNull(bcrypt_highest_cost(0.001), 'a budget no cost fits');
    }

    public function testARangeOfOneCostIsTimed(): void
    {
        self::assertSame(10, bcrypt_highest_cost(1e6, 10, 10));
    }

    public function testEachCostIsTimedAtThatCost(): void
    {
        // A budget of 1.5 hashes at cost 10: cost 14 takes 16 times as long and cannot fit, whatever the
        // machine's speed or load (a loop that timed cost 10 every time would reach 14). Where it stops
        // below is the machine's business: a busy one may let cost 11 or 12 pass. Not more than 1.5: each
        // cost the loop reaches is three hashes, and cost 12 alone is twelve hashes' time at cost 10.
        $times = [];
        for ($i = 0; $i < 3; $i++) {
            $start = hrtime(true);
            password_hash('a password to time', PASSWORD_BCRYPT, ['cost' => 10]);
            $times[] = (hrtime(true) - $start) / 1e6;
        }
        sort($times);
        self::assertNotSame(14, bcrypt_highest_cost(1.5 * $times[1], 10, 14));
    }

    public function testTheLoopReturnsTheHighestCostWithinTheBudgetOrNone(): void
    {
        // Timing on a shared machine: only the ends are certain. Cost 10 takes tens of milliseconds.
        self::assertSame(11, bcrypt_highest_cost(1e6, 10, 11), 'a budget every cost fits');
        self::assertNull(bcrypt_highest_cost(0.001, 10, 16), 'a budget no cost fits');
    }
}
