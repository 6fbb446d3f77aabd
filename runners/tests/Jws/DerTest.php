<?php

declare(strict_types=1);

namespace PhpCryptoBench\Tests\Jws;

use PhpCryptoBench\Exception\MalformedToken;
use PhpCryptoBench\Jws\Der;
use PHPUnit\Framework\TestCase;
use PHPUnit\Framework\Attributes\DataProvider;

/** The DER the JWS code writes (keys for OpenSSL) and reads (ECDSA signatures), byte for byte (X.690). */
final class DerTest extends TestCase
{
    /** @return iterable<string, array{int, string}> */
    public static function lengths(): iterable
    {
        yield '0' => [0, "\x00"];
        yield '127, the largest short form' => [127, "\x7f"];
        yield '128, the smallest long form' => [128, "\x81\x80"];
        yield '255' => [255, "\x81\xff"];
        yield '256, two length bytes' => [256, "\x82\x01\x00"];
        yield '65536, three' => [65536, "\x83\x01\x00\x00"];
    }

    /** @dataProvider lengths */
    #[DataProvider('lengths')]
    public function testLengthsUseTheShortFormBelow128AndTheFewestBytesAbove(int $length, string $encoded): void
    {
        self::assertSame($encoded, Der::length($length));
        $der = "\x04" . $encoded . str_repeat('x', $length);
        $offset = 0;
        self::assertSame(str_repeat('x', $length), Der::read($der, $offset, 0x04));
        self::assertSame(strlen($der), $offset, 'the offset moves past the element');
    }

    /** @return iterable<string, array{string, string}> */
    public static function integers(): iterable
    {
        yield 'zero, from no bytes' => ['', "\x02\x01\x00"];
        yield 'zero, from zero bytes' => ["\0\0", "\x02\x01\x00"];
        yield 'leading zeros dropped' => ["\0\0\x01\x02", "\x02\x02\x01\x02"];
        yield '0x7f needs no zero' => ["\x7f", "\x02\x01\x7f"];
        yield '0x80 needs a zero, to stay non-negative' => ["\x80", "\x02\x02\x00\x80"];
        yield 'a leading zero kept before a high bit' => ["\0\xff", "\x02\x02\x00\xff"];
    }

    /** @dataProvider integers */
    #[DataProvider('integers')]
    public function testUnsignedIntegersAreMinimalAndNonNegative(string $bytes, string $encoded): void
    {
        self::assertSame($encoded, Der::unsignedInteger($bytes));
    }

    public function testTheOtherShapes(): void
    {
        self::assertSame("\x30\x06\x02\x01\x01\x02\x01\x02", Der::sequence(Der::unsignedInteger("\x01"), Der::unsignedInteger("\x02")));
        self::assertSame("\x30\x00", Der::sequence());
        self::assertSame("\x03\x03\x00\xab\xcd", Der::bitString("\xab\xcd"), 'a leading byte of unused bits: 0');
        self::assertSame("\x04\x02\xab\xcd", Der::octetString("\xab\xcd"));
        self::assertSame("\xa0\x02\x05\x00", Der::explicit(0, Der::nullValue()));
        self::assertSame("\xa2\x03\x02\x01\x20", Der::explicit(2, Der::unsignedInteger("\x20")));
        self::assertSame("\x05\x00", Der::nullValue());
        self::assertSame("\x06\x03\x2b\x81\x04", Der::oid("\x2b\x81\x04"));
        self::assertSame("\x30\x81\x80" . str_repeat("\x05\x00", 64), Der::sequence(...array_fill(0, 64, Der::nullValue())));
    }

    public function testPemIsBase64InLinesOf64Characters(): void
    {
        $pem = Der::pem('PUBLIC KEY', str_repeat("\x01", 60));
        self::assertSame("-----BEGIN PUBLIC KEY-----\n" . substr(base64_encode(str_repeat("\x01", 60)), 0, 64) . "\n" . substr(base64_encode(str_repeat("\x01", 60)), 64) . "\n-----END PUBLIC KEY-----\n", $pem);
    }

    /** @return iterable<string, array{string, int, string}> */
    public static function malformed(): iterable
    {
        yield 'another tag' => ["\x31\x00", 0, 'expected tag 0x30 at byte 0'];
        yield 'another tag further on' => ["\x00\x02\x00", 1, 'expected tag 0x30 at byte 1'];
        yield 'no length byte' => ["\x30", 0, 'expected tag 0x30 at byte 0'];
        yield 'nothing at the offset' => ["\x30\x00", 2, 'expected tag 0x30 at byte 2'];
        yield 'a long form of no bytes' => ["\x30\x80", 0, 'got a length field that does not fit'];
        yield 'a long form of 5 bytes' => ["\x30\x85\x01\x00\x00\x00\x00", 0, 'got a length field that does not fit'];
        yield 'a long form cut short' => ["\x30\x82\x01", 0, 'got a length field that does not fit'];
        yield 'a long form with a leading zero' => ["\x30\x82\x00\x80" . str_repeat('x', 128), 0, 'got a long-form length with a leading zero byte'];
        yield 'the long form for 127' => ["\x30\x81\x7f" . str_repeat('x', 127), 0, 'got the long form for a length of 127, which must use the short form'];
        yield 'a length one past the end' => ["\x30\x03xx", 0, 'got a length of 3 past the end of the data'];
        yield 'a long length past the end' => ["\x30\x81\x80" . str_repeat('x', 127), 0, 'got a length of 128 past the end of the data'];
        yield 'a long length and no content' => ["\x30\x82\x01\x00", 0, 'got a length of 256 past the end of the data'];
    }

    /** @dataProvider malformed */
    #[DataProvider('malformed')]
    public function testMalformedDerIsRefusedSayingWhy(string $der, int $offset, string $detail): void
    {
        $this->expectException(MalformedToken::class);
        $this->expectExceptionMessage('ECDSA signature: expected DER SEQUENCE { INTEGER r, INTEGER s }, ' . $detail);
        Der::read($der, $offset, 0x30);
    }

    /** A length byte of 0x30 is the character "0", which is empty() in PHP: the length field is still there. */
    public function testALengthWhoseLastByteIsTheCharacterZeroIsRead(): void
    {
        $offset = 0;
        self::assertSame(0x130, strlen(Der::read("\x04\x82\x01\x30" . str_repeat('x', 0x130), $offset, 0x04)));
    }

    public function testAFourByteLengthIsRead(): void
    {
        $offset = 0;
        $content = str_repeat('x', 0x01000000);
        self::assertSame(strlen($content), strlen(Der::read("\x04\x84\x01\x00\x00\x00" . $content, $offset, 0x04)));
        self::assertSame(6 + strlen($content), $offset);
    }

    public function testAnElementInTheMiddleIsReadFromItsOffset(): void
    {
        $der = "\x05\x00\x02\x02\x01\x02\x05\x00";
        $offset = 2;
        self::assertSame("\x01\x02", Der::read($der, $offset, 0x02));
        self::assertSame(6, $offset);
    }
}
