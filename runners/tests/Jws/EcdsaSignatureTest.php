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
        yield 'an INTEGER longer than the curve' => [Der::sequence(Der::unsignedInteger(str_repeat("\x01", 33)), Der::unsignedInteger("\x01"))];
    }

    /** @dataProvider badDer */
    #[DataProvider('badDer')]
    public function testMalformedDerIsRefused(string $der): void
    {
        $this->expectException(MalformedToken::class);
        EcdsaSignature::derToRaw($der, 32);
    }

    public function testARawSignatureOfTheWrongLengthIsRefused(): void
    {
        $this->expectException(SignatureRejected::class);
        $this->expectExceptionMessage('ES256: expected a 64-byte signature, got 63 bytes');
        EcdsaSignature::rawToDer(str_repeat("\x01", 63), 32, 'ES256');
    }
}
