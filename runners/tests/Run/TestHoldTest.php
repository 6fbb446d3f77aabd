<?php

declare(strict_types=1);

namespace PhpCryptoBench\Tests\Run;

use PhpCryptoBench\Run\TestHold;
use PHPUnit\Framework\TestCase;
use PHPUnit\Framework\Attributes\DataProvider;

final class TestHoldTest extends TestCase
{
    /** @return iterable<string, array{string|false, string, int}> */
    public static function values(): iterable
    {
        yield 'unset' => [false, 'symmetric', 0];
        yield 'the subject named' => ['symmetric:60', 'symmetric', 60];
        yield 'a cell named' => ['sodium/argon2id:5', 'sodium/argon2id', 5];
        yield 'another subject' => ['symmetric:60', 'aead', 0];
        yield 'a prefix of the subject is not the subject' => ['sym:60', 'symmetric', 0];
        yield 'no seconds' => ['symmetric', 'symmetric', 0];
        yield 'a trailing newline' => ["symmetric:60\n", 'symmetric', 0];
    }

    /** @dataProvider values */
    #[DataProvider('values')]
    public function testHoldsOnlyTheSubjectItNames(string|false $value, string $subject, int $seconds): void
    {
        self::assertSame($seconds, TestHold::secondsFor($value, $subject));
    }
}
