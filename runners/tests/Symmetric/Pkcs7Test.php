<?php

declare(strict_types=1);

namespace PhpCryptoBench\Tests\Symmetric;

use PhpCryptoBench\Exception\InvalidPadding;
use PhpCryptoBench\Symmetric\Pkcs7;
use PHPUnit\Framework\TestCase;
use PHPUnit\Framework\Attributes\DataProvider;

final class Pkcs7Test extends TestCase
{
    /** @return iterable<string, array{string, string}> RFC 5652 6.3: pad with N bytes of value N, a whole block when aligned */
    public static function knownAnswers(): iterable
    {
        yield 'empty' => ['', str_repeat("\x10", 16)];
        yield 'three bytes' => ['abc', 'abc' . str_repeat("\x0d", 13)];
        yield 'fifteen bytes' => [str_repeat('x', 15), str_repeat('x', 15) . "\x01"];
        yield 'a whole block' => [str_repeat('x', 16), str_repeat('x', 16) . str_repeat("\x10", 16)];
    }

    /** @dataProvider knownAnswers */
    #[DataProvider('knownAnswers')]
    public function testPadsAndUnpadsKnownAnswers(string $data, string $padded): void
    {
        self::assertSame($padded, Pkcs7::pad($data, 16));
        self::assertSame($data, Pkcs7::unpad($padded, 16));
    }

    /** @return iterable<string, array{string, string}> */
    public static function badPaddings(): iterable
    {
        yield 'empty' => ['', 'expected a non-empty multiple of 16 bytes, got 0'];
        yield 'not whole blocks' => [str_repeat('a', 17), 'expected a non-empty multiple of 16 bytes, got 17'];
        yield 'zero pad byte' => [str_repeat('a', 15) . "\x00", 'expected a final pad byte of 1..16, got 0'];
        yield 'pad byte past the block' => [str_repeat('a', 15) . "\x11", 'expected a final pad byte of 1..16, got 17'];
        yield 'inconsistent bytes' => [str_repeat('a', 14) . "\x01\x02", 'expected the last 2 bytes to equal 2, they differ'];
    }

    /** @dataProvider badPaddings */
    #[DataProvider('badPaddings')]
    public function testBadPaddingIsRejectedSayingWhy(string $data, string $message): void
    {
        $this->expectException(InvalidPadding::class);
        $this->expectExceptionMessage($message);
        Pkcs7::unpad($data, 16);
    }
}
