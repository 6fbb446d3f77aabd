<?php

declare(strict_types=1);

namespace PhpCryptoBench\Tests\Pq;

use LogicException;
use PhpCryptoBench\Pq\PqScheme;
use PHPUnit\Framework\TestCase;
use PHPUnit\Framework\Attributes\DataProvider;

/** The schemes compared: FIPS 204's parameter sets and the classical keys, by their JOSE and speed names. */
final class PqSchemeTest extends TestCase
{
    /** @return iterable<string, array{string, string, string, int, ?int, ?int}> */
    public static function schemes(): iterable
    {
        // name, JOSE alg, openssl speed name, strength, FIPS 204 category, signature bytes
        yield 'ML-DSA-44' => ['ML-DSA-44', 'ML-DSA-44', 'ML-DSA-44', 128, 2, 2420];
        yield 'ML-DSA-65' => ['ML-DSA-65', 'ML-DSA-65', 'ML-DSA-65', 192, 3, 3309];
        yield 'ML-DSA-87' => ['ML-DSA-87', 'ML-DSA-87', 'ML-DSA-87', 256, 5, 4627];
        yield 'Ed25519' => ['Ed25519', 'EdDSA', 'ed25519', 128, null, 64];
        yield 'P-256' => ['P-256', 'ES256', 'ecdsap256', 128, null, null];
        yield 'P-384' => ['P-384', 'ES384', 'ecdsap384', 192, null, null];
        yield 'RSA-2048' => ['RSA-2048', 'RS256', 'rsa2048', 112, null, 256];
        yield 'RSA-3072' => ['RSA-3072', 'RS256', 'rsa3072', 128, null, 384];
    }

    /** @dataProvider schemes */
    #[DataProvider('schemes')]
    public function testEachSchemeHasItsNamesStrengthAndSizes(string $name, string $jose, string $speed, int $bits, ?int $category, ?int $signatureBytes): void
    {
        $scheme = PqScheme::named($name);
        self::assertSame($jose, $scheme->joseAlg);
        self::assertSame($speed, $scheme->nativeName);
        self::assertSame($bits, $scheme->securityBits());
        self::assertSame($category, $scheme->category());
        self::assertSame($signatureBytes, $scheme->expectedSignatureBytes());
        self::assertSame($category !== null, $scheme->isPostQuantum());
        self::assertSame($category !== null ? 0 : $scheme->digest, $scheme->digest, 'ML-DSA signs with the algorithm 0');
    }

    public function testFips204sPublicKeySizesAndTheOrderOfTheComparison(): void
    {
        self::assertSame([1312, 1952, 2592], array_map(static fn (string $n): ?int => PqScheme::named($n)->expectedPublicKeyBytes(), PqScheme::ML_DSA));
        self::assertSame([...PqScheme::ML_DSA, ...PqScheme::CLASSICAL], array_map(static fn (PqScheme $s): string => $s->name, PqScheme::all()));
        self::assertSame(['-algorithm', 'EC', '-pkeyopt', 'ec_paramgen_curve:P-384'], PqScheme::named('P-384')->genpkey);
        self::assertSame(['-algorithm', 'RSA', '-pkeyopt', 'rsa_keygen_bits:3072'], PqScheme::named('RSA-3072')->genpkey);
        self::assertSame(0, PqScheme::named('Ed25519')->digest, 'Ed25519 hashes inside the algorithm too');
    }

    public function testAnUnknownNameIsAProgrammingError(): void
    {
        $this->expectException(LogicException::class);
        $this->expectExceptionMessage('expected one of ML-DSA-44, ML-DSA-65, ML-DSA-87, Ed25519, P-256, P-384, RSA-2048, RSA-3072, got "ML-DSA-66"');
        PqScheme::named('ML-DSA-66');
    }
}
