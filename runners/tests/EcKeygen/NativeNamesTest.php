<?php

declare(strict_types=1);

namespace PhpCryptoBench\Tests\EcKeygen;

use PhpCryptoBench\EcKeygen\KeyScheme;
use PhpCryptoBench\EcKeygen\NativeNames;
use PHPUnit\Framework\TestCase;
use PHPUnit\Framework\Attributes\DataProvider;

final class NativeNamesTest extends TestCase
{
    /** @return iterable<string, array{string, string, ?string}> */
    public static function names(): iterable
    {
        yield 'P-256 signs as ecdsap256' => ['prime256v1', KeyScheme::SIGN, 'ecdsap256'];
        yield 'P-256 derives as ecdhp256' => ['prime256v1', KeyScheme::DERIVE, 'ecdhp256'];
        yield 'a Koblitz curve' => ['sect233k1', KeyScheme::VERIFY, 'ecdsak233'];
        yield 'a binary curve' => ['sect571r1', KeyScheme::DERIVE, 'ecdhb571'];
        yield 'brainpool' => ['brainpoolP384r1', KeyScheme::SIGN, 'ecdsabrp384r1'];
        yield 'RSA by its size' => ['RSA-3072', KeyScheme::VERIFY, 'rsa3072'];
        yield 'RSA has no derivation' => ['RSA-2048', KeyScheme::DERIVE, null];
        yield 'Ed25519' => ['Ed25519', KeyScheme::SIGN, 'ed25519'];
        yield 'X25519' => ['X25519', KeyScheme::DERIVE, 'ecdhx25519'];
        yield 'a curve openssl speed lacks' => ['secp256k1', KeyScheme::SIGN, null];
    }

    /** @dataProvider names */
    #[DataProvider('names')]
    public function testEachSchemeOperationHasItsSpeedNameOrNone(string $scheme, string $operation, ?string $expected): void
    {
        self::assertSame($expected, NativeNames::of($scheme, $operation));
    }
}
