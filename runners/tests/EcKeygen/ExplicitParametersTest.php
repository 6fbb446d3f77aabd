<?php

declare(strict_types=1);

namespace PhpCryptoBench\Tests\EcKeygen;

use PhpCryptoBench\EcKeygen\ExplicitParameters;
use PhpCryptoBench\EcKeygen\OpensslCurve;
use PhpCryptoBench\Exception\KeyOperationFailed;
use PHPUnit\Framework\TestCase;
use PHPUnit\Framework\Attributes\DataProvider;

final class ExplicitParametersTest extends TestCase
{
    private const PRIME_FIELD = <<<'TXT'
        Public-Key: (110 bit)
        Field Type: prime-field
        Prime:
            00:db:7c:2a:bf:62:e3:5e:66:80:76:be:ad:20:8b
        A:
            00:db:7c:2a:bf:62:e3:5e:66:80:76:be:ad:20:88
        TXT;

    private const BINARY_FIELD = <<<'TXT'
        Public-Key: (193 bit)
        Field Type: characteristic-two-field
        Basis Type: ppBasis
        Polynomial:
            01:00:00:00:00:00:00:00:00:00:00:00:00:00:00:
            00:08:00:00:00:00:00:00:00:00:00:07
        A:    0
        TXT;

    public function testAPrimeFieldHasThePrimesBitLength(): void
    {
        // secp112r2: p = (2^128 - 3) / 76439, a 112-bit prime (its group order has 110 bits).
        self::assertSame(112, ExplicitParameters::parseFieldBits('secp112r2', self::PRIME_FIELD));
    }

    public function testABinaryFieldHasItsPolynomialsDegree(): void
    {
        // c2pnb208w1: x^208 + x^83 + x^2 + x + 1, degree 208 (its group order has 193 bits).
        self::assertSame(208, ExplicitParameters::parseFieldBits('c2pnb208w1', self::BINARY_FIELD));
    }

    public function testTextWithoutAFieldIsRefused(): void
    {
        $this->expectException(KeyOperationFailed::class);
        $this->expectExceptionMessage('SM9: expected the curve\'s explicit parameters from `openssl ec`, got: no "Prime:" or "Polynomial:" block');
        ExplicitParameters::parseFieldBits('SM9', "Public-Key: (256 bit)\npub:\n    04:aa\n");
    }

    /** @return iterable<string, array{string, int}> */
    public static function curves(): iterable
    {
        yield 'P-256' => ['prime256v1', 256];
        yield 'P-521, a 521-bit prime' => ['secp521r1', 521];
        yield 'sect571k1, order 570 bits' => ['sect571k1', 571];
        yield 'c2pnb272w1, order 257 bits' => ['c2pnb272w1', 272];
    }

    /** @dataProvider curves */
    #[DataProvider('curves')]
    public function testTheFieldSizeIsReadFromARealKey(string $curve, int $fieldBits): void
    {
        self::assertSame($fieldBits, (new ExplicitParameters())->fieldBits($curve, OpensslCurve::newKey($curve)));
    }

    public function testAMissingOpensslCommandIsAClearError(): void
    {
        $this->expectException(KeyOperationFailed::class);
        $this->expectExceptionMessageMatches('/prime256v1: expected the curve\'s explicit parameters .*(could not start|exit status)/');
        (new ExplicitParameters('/nonexistent/openssl'))->fieldBits('prime256v1', OpensslCurve::newKey('prime256v1'));
    }
}
