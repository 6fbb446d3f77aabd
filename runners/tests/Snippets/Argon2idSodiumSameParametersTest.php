<?php

declare(strict_types=1);

namespace PhpCryptoBench\Tests\Snippets;

use InvalidArgumentException;
use PHPUnit\Framework\Attributes\DataProvider;

/**
 * runners/snippets/argon2id-sodium-same-parameters.php: libsodium's Argon2id at exactly the
 * parameters the caller gives password_hash() (PHP's defaults when it gives none), in a PHC string
 * password_verify() accepts; threads other than 1 refused; on login, a rehash when they change.
 */
final class Argon2idSodiumSameParametersTest extends SnippetTestCase
{
    private const PASSWORD = 'correct horse battery staple';

    public static function snippet(): string
    {
        return 'argon2id-sodium-same-parameters.php';
    }

    /**
     * Each case makes four hashes at its parameters (the snippet's, two verifications, password_hash()'s):
     * PHP's default 64 MiB are paid at four passes where no option is given, and at one pass (above the
     * one-pass floor of 46 MiB) where the caller gives only the time.
     *
     * @return iterable<string, array{array<string, int>, int, int}> options => the m (KiB) and t the hash must carry
     */
    public static function parameters(): iterable
    {
        yield "PHP's defaults (no options)" => [[], PASSWORD_ARGON2_DEFAULT_MEMORY_COST, PASSWORD_ARGON2_DEFAULT_TIME_COST];
        yield "OWASP's floor" => [['memory_cost' => 19456, 'time_cost' => 2, 'threads' => 1], 19456, 2];
        yield 'memory only' => [['memory_cost' => 20480], 20480, PASSWORD_ARGON2_DEFAULT_TIME_COST];
        yield 'time only' => [['time_cost' => 1], PASSWORD_ARGON2_DEFAULT_MEMORY_COST, 1];
        yield 'odd values' => [['memory_cost' => 19457, 'time_cost' => 3, 'threads' => 1], 19457, 3];
        yield "OWASP's one-pass floor: 46 MiB, t = 1" => [['memory_cost' => 47104, 'time_cost' => 1, 'threads' => 1], 47104, 1];
    }

    /**
     * @dataProvider parameters
     * @param array<string, int> $options
     */
    #[DataProvider('parameters')]
    public function testTheHashCarriesTheCallersParametersAndPasswordVerifyAcceptsIt(array $options, int $memoryKib, int $timeCost): void
    {
        $hash = argon2id_hash_with_sodium(self::PASSWORD, $options);

        $prefix = sprintf('$argon2id$v=19$m=%d,t=%d,p=1$', $memoryKib, $timeCost);
        self::assertStringStartsWith($prefix, $hash);
        self::assertSame(['algo' => PASSWORD_ARGON2ID, 'algoName' => 'argon2id', 'options' => ['memory_cost' => $memoryKib, 'time_cost' => $timeCost, 'threads' => 1]], password_get_info($hash));
        self::assertTrue(password_verify(self::PASSWORD, $hash));
        self::assertFalse(password_verify(self::PASSWORD . '!', $hash));
        self::assertFalse(password_needs_rehash($hash, PASSWORD_ARGON2ID, $options), 'password_hash() at these options would keep it');
        // The parameters password_hash() itself writes for the same options.
        self::assertStringStartsWith($prefix, password_hash(self::PASSWORD, PASSWORD_ARGON2ID, $options));
    }

    /** @return iterable<string, array{int}> */
    public static function threads(): iterable
    {
        yield '2 threads' => [2];
        yield '4 threads' => [4];
        yield '0 threads' => [0];
    }

    /** @dataProvider threads */
    #[DataProvider('threads')]
    public function testThreadsOtherThanOneAreRefusedNotChanged(int $threads): void
    {
        $this->expectException(InvalidArgumentException::class);
        $this->expectExceptionMessage(sprintf('expected threads = 1, got %1$d: libsodium computes Argon2id with one thread (p = 1) only; keep password_hash() for hashes with p = %1$d, or choose threads = 1', $threads));
        argon2id_hash_with_sodium(self::PASSWORD, ['memory_cost' => 8192, 'time_cost' => 1, 'threads' => $threads]);
    }

    /** @return iterable<string, array{array<string, mixed>, string}> */
    public static function badOptions(): iterable
    {
        yield 'memory as a string' => [['memory_cost' => '65536'], 'expected memory_cost as an integer, got string'];
        yield 'time as a float' => [['time_cost' => 2.0], 'expected time_cost as an integer, got float'];
        $floor = "expected OWASP's floor, memory_cost >= 19456 (KiB) with time_cost >= 2 or memory_cost >= 47104 with time_cost = 1, got ";
        yield 'memory below 8 KiB' => [['memory_cost' => 7], $floor . '7 and ' . PASSWORD_ARGON2_DEFAULT_TIME_COST];
        yield "Argon2's lower bounds: 8 KiB, one pass" => [['memory_cost' => 8, 'time_cost' => 1], $floor . '8 and 1'];
        yield 'one KiB under 19 MiB, two passes' => [['memory_cost' => 19455, 'time_cost' => 2], $floor . '19455 and 2'];
        yield 'one KiB under 46 MiB, one pass' => [['memory_cost' => 47103, 'time_cost' => 1], $floor . '47103 and 1'];
        yield '19 MiB, one pass' => [['memory_cost' => 19456, 'time_cost' => 1], $floor . '19456 and 1'];
        yield 'no pass' => [['memory_cost' => 65536, 'time_cost' => 0], $floor . '65536 and 0'];
    }

    /**
     * @dataProvider badOptions
     * @param array<string, mixed> $options
     */
    #[DataProvider('badOptions')]
    public function testOptionsLibsodiumCannotHonourOrBelowOwaspsFloorAreRefused(array $options, string $reason): void
    {
        $this->expectException(InvalidArgumentException::class);
        $this->expectExceptionMessage($reason);
        argon2id_hash_with_sodium(self::PASSWORD, $options);
    }

    public function testLoginKeepsAHashOfTheCurrentParameters(): void
    {
        $options = ['memory_cost' => 19456, 'time_cost' => 2, 'threads' => 1];
        $stored = argon2id_hash_with_sodium(self::PASSWORD, $options);

        self::assertSame($stored, argon2id_login(self::PASSWORD, $stored, $options));
        self::assertNull(argon2id_login('wrong password', $stored, $options));
    }

    /** @return iterable<string, array{callable(): string}> a hash made otherwise than the current options */
    public static function oldHashes(): iterable
    {
        yield 'fewer passes (sodium)' => [static fn (): string => argon2id_hash_with_sodium(self::PASSWORD, ['memory_cost' => 47104, 'time_cost' => 1])];
        yield 'below the floor (password_hash)' => [static fn (): string => password_hash(self::PASSWORD, PASSWORD_ARGON2ID, ['memory_cost' => 8192, 'time_cost' => 1, 'threads' => 1])];
        yield 'less memory (password_hash)' => [static fn (): string => password_hash(self::PASSWORD, PASSWORD_ARGON2ID, ['memory_cost' => 8000, 'time_cost' => 2, 'threads' => 1])];
        yield 'Argon2i' => [static fn (): string => password_hash(self::PASSWORD, PASSWORD_ARGON2I, ['memory_cost' => 8192, 'time_cost' => 2, 'threads' => 1])];
        yield 'bcrypt' => [static fn (): string => password_hash(self::PASSWORD, PASSWORD_BCRYPT, ['cost' => 4])];
    }

    /**
     * @dataProvider oldHashes
     * @param callable(): string $make
     */
    #[DataProvider('oldHashes')]
    public function testLoginRehashesAtTheCurrentParametersWhenTheStoredHashDiffers(callable $make): void
    {
        $stored = $make();
        $options = ['memory_cost' => 19456, 'time_cost' => 2, 'threads' => 1];

        $kept = argon2id_login(self::PASSWORD, $stored, $options);
        self::assertNotNull($kept);
        self::assertNotSame($stored, $kept);
        self::assertStringStartsWith('$argon2id$v=19$m=19456,t=2,p=1$', $kept);
        self::assertTrue(password_verify(self::PASSWORD, $kept));
        self::assertNull(argon2id_login('wrong password', $stored, $options), 'a wrong password is refused, not rehashed');
    }

    public function testLoginRefusesThreadsOtherThanOneBeforeLookingAtThePassword(): void
    {
        $stored = password_hash(self::PASSWORD, PASSWORD_ARGON2ID, ['memory_cost' => 19456, 'time_cost' => 2, 'threads' => 1]);
        $this->expectException(InvalidArgumentException::class);
        $this->expectExceptionMessage('expected threads = 1, got 2');
        argon2id_login(self::PASSWORD, $stored, ['memory_cost' => 19456, 'time_cost' => 2, 'threads' => 2]);
    }
}
