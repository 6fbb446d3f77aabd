<?php

declare(strict_types=1);

namespace PhpCryptoBench\Tests\Jws;

use PhpCryptoBench\Exception\MalformedToken;
use PhpCryptoBench\Exception\SignatureRejected;
use PhpCryptoBench\Jws\Der;
use PhpCryptoBench\Jws\EcdsaSignature;
use PHPUnit\Framework\TestCase;
use PHPUnit\Framework\Attributes\DataProvider;

final class EcdsaSignatureTest extends TestCase
{
    public function testAShortRIsLeftPaddedAndAHighBitSGetsADerZero(): void
    {
        $raw = str_repeat("\0", 31) . "\x05" . "\x80" . str_repeat("\x11", 31);
        $der = EcdsaSignature::rawToDer($raw, 32, 'ES256');
        self::assertSame("\x30\x26\x02\x01\x05\x02\x21\x00\x80" . str_repeat("\x11", 31), $der);
        self::assertSame($raw, EcdsaSignature::derToRaw($der, 32));
    }

    public function testP521SignaturesNeedTheLongFormLength(): void
    {
        $raw = "\x01" . str_repeat("\xff", 65) . "\x01" . str_repeat("\xee", 65);
        $der = EcdsaSignature::rawToDer($raw, 66, 'ES512');
        self::assertSame("\x30\x81\x88", substr($der, 0, 3), '136 content bytes: long form 0x81 0x88');
        self::assertSame($raw, EcdsaSignature::derToRaw($der, 66));
        self::assertSame(132, strlen(EcdsaSignature::derToRaw($der, 66)));
    }

    public function testRealOpensslSignaturesRoundTripAtEverySize(): void
    {
        foreach (['prime256v1' => 32, 'secp384r1' => 48, 'secp521r1' => 66] as $curve => $bytes) {
            $key = openssl_pkey_new(['private_key_type' => OPENSSL_KEYTYPE_EC, 'curve_name' => $curve]);
            for ($i = 0; $i < 20; $i++) {
                openssl_sign("message $i", $der, $key, 'sha256');
                $raw = EcdsaSignature::derToRaw($der, $bytes);
                self::assertSame(2 * $bytes, strlen($raw));
                self::assertSame($der, EcdsaSignature::rawToDer($raw, $bytes, 'ES'), $curve);
            }
        }
    }

    /** @return iterable<string, array{string}> */
    public static function badDer(): iterable
    {
        yield 'not a SEQUENCE' => ["\x31\x06\x02\x01\x01\x02\x01\x01"];
        yield 'trailing bytes' => ["\x30\x06\x02\x01\x01\x02\x01\x01\x00"];
        yield 'a negative INTEGER' => ["\x30\x06\x02\x01\x81\x02\x01\x01"];
        yield 'a needless leading zero' => ["\x30\x07\x02\x02\x00\x01\x02\x01\x01"];
        yield 'long form for a short length' => ["\x30\x81\x06\x02\x01\x01\x02\x01\x01"];
        yield 'a length past the end' => ["\x30\x08\x02\x01\x01\x02\x01\x01"];
        yield 'an INTEGER longer than the curve' => [Der::sequence(Der::unsignedInteger(str_repeat("\x01", 33)), Der::unsignedInteger("\x01")), 'got an INTEGER of 33 bytes, more than the curve\'s 32'];
        yield 'an empty INTEGER' => ["\x30\x05\x02\x00\x02\x01\x01", 'got an empty or negative INTEGER'];
        yield 'three INTEGERs' => ["\x30\x09\x02\x01\x01\x02\x01\x01\x02\x01\x01", 'got more than two INTEGERs'];
        yield 'an INTEGER and a NULL' => ["\x30\x08\x02\x01\x01\x02\x01\x01\x05\x00", 'got more than two INTEGERs'];
    }

    /** @dataProvider badDer */
    #[DataProvider('badDer')]
    public function testMalformedDerIsRefused(string $der, ?string $detail = null): void
    {
        $this->expectException(MalformedToken::class);
        if ($detail !== null) {
            $this->expectExceptionMessage('ECDSA signature: expected DER SEQUENCE { INTEGER r, INTEGER s }, ' . $detail);
        }
        EcdsaSignature::derToRaw($der, 32);
    }

    /**
     * A SEQUENCE of 127 content bytes takes the short form, one of 128 the long form (X.690 8.1.3):
     * P-521 coordinates with a few leading zero bytes give both.
     */
    public function testTheSequenceLengthSwitchesToTheLongFormAt128(): void
    {
        // r and s of 62 bytes, no DER zero: 2 + 62 + 2 + 62 = 128.
        $coordinate = str_repeat("\0", 4) . "\x7f" . str_repeat("\x22", 61);
        $der = EcdsaSignature::rawToDer($coordinate . $coordinate, 66, 'ES512');
        self::assertSame("\x30\x81\x80\x02\x3e\x7f", substr($der, 0, 6));
        self::assertSame(131, strlen($der));
        // s one byte shorter: 127 content bytes, the short form.
        $shorter = str_repeat("\0", 5) . "\x7f" . str_repeat("\x22", 60);
        self::assertSame("\x30\x7f\x02\x3e", substr(EcdsaSignature::rawToDer($coordinate . $shorter, 66, 'ES512'), 0, 4));
        self::assertSame($coordinate . $shorter, EcdsaSignature::derToRaw(EcdsaSignature::rawToDer($coordinate . $shorter, 66, 'ES512'), 66));
    }

    public function testAZeroCoordinateIsTheIntegerZero(): void
    {
        $raw = str_repeat("\0", 32) . str_repeat("\0", 31) . "\x01";
        self::assertSame("\x30\x06\x02\x01\x00\x02\x01\x01", EcdsaSignature::rawToDer($raw, 32, 'ES256'));
        self::assertSame($raw, EcdsaSignature::derToRaw("\x30\x06\x02\x01\x00\x02\x01\x01", 32));
    }

    public function testARawSignatureOfTheWrongLengthIsRefused(): void
    {
        $this->expectException(SignatureRejected::class);
        $this->expectExceptionMessage('ES256: expected a 64-byte signature, got 63 bytes');
        EcdsaSignature::rawToDer(str_repeat("\x01", 63), 32, 'ES256');
    }
}
