<?php

declare(strict_types=1);

namespace PhpCryptoBench\Tests\Jwt;

use PhpCryptoBench\Jws\Base64Url;
use PhpCryptoBench\Jws\CompactJws;
use PhpCryptoBench\Jws\Jwk;
use PhpCryptoBench\Jwt\JwtCase;
use PhpCryptoBench\Jwt\JwtScheme;
use PhpCryptoBench\Tests\Support\SharedJwtKeys;
use PHPUnit\Framework\TestCase;
use PHPUnit\Framework\Attributes\DataProvider;

final class JwtCaseTest extends TestCase
{
    /** @return iterable<string, array{string, string, int}> */
    public static function schemes(): iterable
    {
        yield 'ES512 on P-521' => ['ES512', 'EC secp521r1', 521];
        yield 'PS256 on RSA-2048' => ['PS256', 'RSA', 2048];
        yield 'EdDSA' => ['EdDSA', 'OKP Ed25519', 255];
        yield 'HS384, a 48-byte secret' => ['HS384', 'oct', 384];
    }

    /** @dataProvider schemes */
    #[DataProvider('schemes')]
    public function testEachOperationRunsAndVerifiesItsOutput(string $alg, string $keyType, int $bits): void
    {
        $scheme = JwtScheme::named($alg);
        self::assertSame([$keyType, $bits], [$scheme->keyType, $scheme->keyBits]);
        // The keygen case below times and checks fresh keys; signing needs any key of the scheme.
        $private = (new SharedJwtKeys())->privateKey($scheme);
        foreach ([JwtCase::SIGN, JwtCase::VERIFY, JwtCase::KEYGEN] as $operation) {
            $case = new JwtCase($scheme, $operation, 100, $private);
            $case->run(2);
            $case->verifyLastRun();
            self::assertSame($operation === JwtCase::KEYGEN ? 0 : strlen($case->token()), $case->key()['token_bytes']);
        }
    }

    public function testItsKeysAreTheOnesItSignsAndVerifiesWith(): void
    {
        $scheme = JwtScheme::named('ES256');
        $private = $scheme->generate();
        $case = new JwtCase($scheme, JwtCase::VERIFY, 100, $private);
        self::assertSame($private, $case->signingKey()->material, 'the private key object itself');
        self::assertTrue($case->signingKey()->signs);
        self::assertFalse($case->verificationKey()->signs);
        self::assertSame(Jwk::publicOf($private), Jwk::publicOf($case->verificationKey()->material), 'imported from the published public JWK');
        self::assertSame(Base64Url::decode(explode('.', $case->token())[1]), CompactJws::verify($case->token(), $case->verificationKey())->payload, 'its token verifies with it');
    }

    public function testTheTokenCarriesTheSeedsDataClaimOfTheAskedLength(): void
    {
        $scheme = JwtScheme::named('ES256');
        $case = new JwtCase($scheme, JwtCase::SIGN, 500, $scheme->generate());
        $claims = json_decode(Base64Url::decode(explode('.', $case->token())[1]), true);
        self::assertSame(500, strlen($claims['data']));
        self::assertSame(7 * 86400, $claims['exp'] - $claims['iat']);
    }

    public function testThePublishedJwkOfAnHmacKeyIsItsSecretAndOfOthersThePublicHalf(): void
    {
        $hs = JwtScheme::named('HS256');
        $secret = $hs->generate();
        self::assertSame(['kty' => 'oct', 'k' => Base64Url::encode($secret), 'alg' => 'HS256', 'use' => 'sig'], $hs->publishedJwk($secret));
        $es = JwtScheme::named('ES256');
        self::assertArrayNotHasKey('d', $es->publishedJwk($es->generate()));
    }
}
