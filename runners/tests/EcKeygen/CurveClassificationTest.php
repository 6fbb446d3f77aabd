<?php

declare(strict_types=1);

namespace PhpCryptoBench\Tests\EcKeygen;

use PhpCryptoBench\EcKeygen\CurveClassification;
use PhpCryptoBench\EcKeygen\SecurityLevel;
use PhpCryptoBench\Exception\UnknownCurve;
use PHPUnit\Framework\TestCase;
use PHPUnit\Framework\Attributes\DataProvider;

final class CurveClassificationTest extends TestCase
{
    /** @return iterable<string, array{string, string, string}> */
    public static function names(): iterable
    {
        yield 'Brainpool' => ['brainpoolP512t1', 'brainpool', 'Brainpool'];
        yield 'X9.62 prime' => ['prime256v1', 'prime', 'ANSI X9.62'];
        yield 'X9.62 pentanomial' => ['c2pnb208w1', 'c2pnb', 'ANSI X9.62'];
        yield 'X9.62 trinomial' => ['c2tnb431r1', 'c2tnb', 'ANSI X9.62'];
        yield 'SECG prime' => ['secp256k1', 'secp', 'SECG'];
        yield 'SECG binary' => ['sect571r1', 'sect', 'SECG'];
        yield 'WAP, the longest prefix wins over none' => ['wap-wsg-idm-ecid-wtls12', 'wap', 'WAP Forum (WTLS)'];
        yield 'Oakley' => ['Oakley-EC2N-4', 'oakley', 'IETF (RFC 2409 Oakley)'];
        yield 'SM2' => ['SM2', 'sm2', 'OSCCA (China)'];
    }

    /** @dataProvider names */
    #[DataProvider('names')]
    public function testEachFamilyAndOrganization(string $curve, string $family, string $organization): void
    {
        $classification = CurveClassification::of($curve);
        self::assertSame($family, $classification->family);
        self::assertSame($organization, $classification->organization);
    }

    public function testEveryCurveThisOpensslListsIsClassified(): void
    {
        $families = [];
        foreach (openssl_get_curve_names() as $curve) {
            $families[CurveClassification::of($curve)->family] = true;
        }
        self::assertGreaterThanOrEqual(80, count(openssl_get_curve_names()));
        self::assertEqualsCanonicalizing(['brainpool', 'prime', 'c2pnb', 'c2tnb', 'secp', 'sect', 'wap', 'oakley', 'sm2'], array_keys($families));
    }

    public function testAnUnknownNameIsRefusedWithTheKnownPrefixes(): void
    {
        $this->expectException(UnknownCurve::class);
        $this->expectExceptionMessage('curve25519x: expected a name starting with one of brainpoolP, prime, c2pnb');
        CurveClassification::of('curve25519x');
    }

    /** @return iterable<string, array{int, int}> */
    public static function eccStrengths(): iterable
    {
        yield 'secp112r1, below the table' => [112, 56];
        yield '160 bits' => [160, 80];
        yield 'c2pnb208w1\'s 193-bit order' => [193, 80];
        yield 'P-224' => [224, 112];
        yield 'secp224k1\'s 225-bit order' => [225, 112];
        yield 'P-256' => [256, 128];
        yield 'sect409k1\'s 407-bit order' => [407, 192];
        yield 'sect571k1\'s 570-bit order' => [570, 256];
        yield 'P-521' => [521, 256];
    }

    /** @dataProvider eccStrengths */
    #[DataProvider('eccStrengths')]
    public function testEccStrengthFollowsSp80057Table2(int $orderBits, int $strength): void
    {
        self::assertSame($strength, SecurityLevel::forEcc($orderBits));
    }

    public function testRsaStrengthFollowsSp80057Table2(): void
    {
        self::assertSame([0, 80, 112, 128, 128, 192, 256], array_map(SecurityLevel::forRsa(...), [512, 1024, 2048, 3072, 4096, 7680, 15360]));
    }
}
