<?php

declare(strict_types=1);

namespace PhpCryptoBench\Tests\Snippets;

use InvalidArgumentException;
use RuntimeException;
use TypeError;
use PHPUnit\Framework\Attributes\DataProvider;

/**
 * runners/snippets/record-in-one-call.php: a record of fields, each length-prefixed, sealed in one
 * AES-256-GCM call and parsed back strictly; and the slow way (a call per field) with each field's
 * place authenticated.
 */
final class RecordInOneCallTest extends SnippetTestCase
{
    private const NONCE_AND_TAG = 12 + 16;
    private const PLACE = 'users:42';

    public static function snippet(): string
    {
        return 'record-in-one-call.php';
    }

    /** @return iterable<string, array{list<string>}> */
    public static function records(): iterable
    {
        yield 'no field' => [[]];
        yield 'one empty field' => [['']];
        yield 'fields that join alike' => [['ab', 'c']];
        yield 'the same, split elsewhere' => [['a', 'bc']];
        yield 'empty fields between others' => [['', 'x', '', '', 'yz', '']];
        yield 'a field that looks like a length prefix' => [["\0\0\0\x05hello", "\xff\xff\xff\xff"]];
        yield '64 fields of 16 bytes (what the benchmark times)' => [array_map(static fn (int $i): string => random_bytes(16), range(1, 64))];
        yield 'one field of 70 KiB' => [[random_bytes(70_000)]];
    }

    /**
     * @dataProvider records
     * @param list<string> $fields
     */
    #[DataProvider('records')]
    public function testARecordSealedInOneCallOpensToTheSameFields(array $fields): void
    {
        $key = random_bytes(32);
        $sealed = record_seal($fields, self::PLACE, $key);

        $prefixed = array_sum(array_map(static fn (string $f): int => 4 + strlen($f), $fields));
        self::assertSame(self::NONCE_AND_TAG + $prefixed, strlen($sealed), 'one nonce and one tag for the whole record');
        self::assertSame($fields, record_open($sealed, self::PLACE, $key));
    }

    /**
     * @dataProvider records
     * @param list<string> $fields
     */
    #[DataProvider('records')]
    public function testTheSlowWaySealsEachFieldAndOpensToTheSameFields(array $fields): void
    {
        $key = random_bytes(32);
        $sealed = record_seal_field_by_field($fields, self::PLACE, $key);

        self::assertCount(count($fields), $sealed);
        foreach ($sealed as $i => $message) {
            self::assertSame(self::NONCE_AND_TAG + strlen($fields[$i]), strlen($message), 'a nonce and a tag per field');
        }
        self::assertSame($fields, record_open_field_by_field($sealed, self::PLACE, $key));
    }

    public function testFieldsThatJoinAlikeSealToDifferentRecords(): void
    {
        $key = random_bytes(32);
        self::assertSame(['ab', 'c'], record_open(record_seal(['ab', 'c'], self::PLACE, $key), self::PLACE, $key));
        self::assertSame("\0\0\0\x02ab\0\0\0\x01c", record_encode(['ab', 'c']));
        self::assertSame("\0\0\0\x01a\0\0\0\x02bc", record_encode(['a', 'bc']));
    }

    /** @return iterable<string, array{callable(string): string}> */
    public static function tamperings(): iterable
    {
        yield 'nonce changed' => [static fn (string $s): string => self::flipped($s, 5)];
        yield 'tag changed' => [static fn (string $s): string => self::flipped($s, 12 + 7)];
        yield 'first length prefix changed' => [static fn (string $s): string => self::flipped($s, self::NONCE_AND_TAG + 3)];
        yield 'second length prefix changed' => [static fn (string $s): string => self::flipped($s, self::NONCE_AND_TAG + 4 + 16 + 3)];
        yield 'a field changed' => [static fn (string $s): string => self::flipped($s, self::NONCE_AND_TAG + 4 + 1)];
        yield 'last field cut' => [static fn (string $s): string => substr($s, 0, -20)];
        yield 'a byte appended' => [static fn (string $s): string => $s . "\0"];
    }

    /**
     * @dataProvider tamperings
     * @param callable(string): string $tamper
     */
    #[DataProvider('tamperings')]
    public function testAChangedRecordIsRefused(callable $tamper): void
    {
        $key = random_bytes(32);
        $sealed = $tamper(record_seal(['0123456789abcdef', 'fedcba9876543210'], self::PLACE, $key));
        $this->expectException(RuntimeException::class);
        $this->expectExceptionMessage('the message could not be authenticated');
        record_open($sealed, self::PLACE, $key);
    }

    public function testARecordMovedToAnotherPlaceOrOpenedWithAnotherKeyIsRefused(): void
    {
        $key = random_bytes(32);
        $sealed = record_seal(['secret'], self::PLACE, $key);
        foreach ([[$sealed, 'users:43', $key], [$sealed, self::PLACE, random_bytes(32)]] as [$message, $place, $otherKey]) {
            try {
                record_open($message, $place, $otherKey);
                self::fail('expected the record to be refused');
            } catch (RuntimeException $e) {
                self::assertSame('the message could not be authenticated', $e->getMessage());
            }
        }
    }

    public function testAKeyOfAnotherLengthIsRefused(): void
    {
        $this->expectException(InvalidArgumentException::class);
        $this->expectExceptionMessage('expected a 32-byte key, got 16 bytes');
        record_seal(['x'], self::PLACE, random_bytes(16));
    }

    /** @return iterable<string, array{string, string}> */
    public static function malformedEncodings(): iterable
    {
        yield 'a length prefix of 3 bytes' => ["\0\0\x01", 'malformed record: a length prefix cut short at byte 0'];
        yield 'a second prefix cut short' => ["\0\0\0\x01a\0\0", 'malformed record: a length prefix cut short at byte 5'];
        yield 'a prefix longer than the rest' => ["\0\0\0\x05abcd", 'malformed record: field 0 says 5 bytes, 4 are left'];
        yield 'a prefix of 4 GiB - 1' => ["\xff\xff\xff\xffabcd", 'malformed record: field 0 says 4294967295 bytes, 4 are left'];
        yield 'a trailing byte' => ["\0\0\0\x01ab", 'malformed record: a length prefix cut short at byte 5'];
    }

    /**
     * What the strict parser refuses; the tag already refuses any change to a record, so these would
     * come from a bug on the sealing side.
     *
     * @dataProvider malformedEncodings
     */
    #[DataProvider('malformedEncodings')]
    public function testTheParserRefusesAnyMalformedEncoding(string $encoded, string $reason): void
    {
        $this->expectException(RuntimeException::class);
        $this->expectExceptionMessage($reason);
        record_decode($encoded);
    }

    public function testAMalformedRecordThatAuthenticatesIsStillRefused(): void
    {
        $key = random_bytes(32);
        $sealed = aes256gcm_seal("\0\0\0\x0atoo short", self::PLACE, $key);
        $this->expectException(RuntimeException::class);
        $this->expectExceptionMessage('malformed record: field 0 says 10 bytes, 9 are left');
        record_open($sealed, self::PLACE, $key);
    }

    /** @return iterable<string, array{array<mixed>, string}> */
    public static function badFields(): iterable
    {
        yield 'not a list' => [['name' => 'x'], 'expected the fields as a list, in order'];
        yield 'an integer field' => [['x', 42], 'field 1: expected a string, got int'];
        yield 'a null field' => [[null], 'field 0: expected a string, got null'];
    }

    /**
     * @dataProvider badFields
     * @param array<mixed> $fields
     */
    #[DataProvider('badFields')]
    public function testFieldsThatAreNotAListOfStringsAreRefused(array $fields, string $reason): void
    {
        $this->expectException(InvalidArgumentException::class);
        $this->expectExceptionMessage($reason);
        record_seal($fields, self::PLACE, random_bytes(32));
    }

    /** @return iterable<string, array{callable(list<string>): list<string>}> */
    public static function rearrangements(): iterable
    {
        yield 'two fields swapped' => [static fn (array $s): array => [$s[1], $s[0], $s[2]]];
        yield 'the last field dropped' => [static fn (array $s): array => [$s[0], $s[1]]];
        yield 'a field repeated' => [static fn (array $s): array => [$s[0], $s[0], $s[2]]];
        yield 'a field changed' => [static fn (array $s): array => [$s[0], self::flipped($s[1], 14), $s[2]]];
    }

    /**
     * @dataProvider rearrangements
     * @param callable(list<string>): list<string> $rearrange
     */
    #[DataProvider('rearrangements')]
    public function testTheSlowWayRefusesFieldsReorderedDroppedOrChanged(callable $rearrange): void
    {
        $key = random_bytes(32);
        $sealed = $rearrange(record_seal_field_by_field(['alice', 'bob', 'carol'], self::PLACE, $key));
        $this->expectException(RuntimeException::class);
        $this->expectExceptionMessage('the message could not be authenticated');
        record_open_field_by_field($sealed, self::PLACE, $key);
    }

    public function testTheSlowWayRefusesAnotherPlace(): void
    {
        $key = random_bytes(32);
        $sealed = record_seal_field_by_field(['alice', 'bob'], self::PLACE, $key);
        $this->expectException(RuntimeException::class);
        record_open_field_by_field($sealed, 'users:43', $key);
    }

    public function testTheSlowWayNumbersFieldsByTheirOrderNotTheirKeys(): void
    {
        // Keys are not part of the record: the fields' order is, on both sides.
        $key = random_bytes(32);
        $sealed = record_seal_field_by_field([3 => 'alice', 7 => 'bob'], self::PLACE, $key);
        self::assertSame([0, 1], array_keys($sealed));
        self::assertSame(['alice', 'bob'], record_open_field_by_field($sealed, self::PLACE, $key));
        self::assertSame(['alice', 'bob'], record_open_field_by_field(['first' => $sealed[0], 'second' => $sealed[1]], self::PLACE, $key));
        self::assertSame(['alice', 'bob'], record_open_field_by_field(record_seal_field_by_field(['alice', 'bob'], self::PLACE, $key), self::PLACE, $key));
    }

    public function testTheSlowWayTakesStringsOnly(): void
    {
        $this->expectException(TypeError::class);
        record_seal_field_by_field(['x', 1], self::PLACE, random_bytes(32));
    }
}
