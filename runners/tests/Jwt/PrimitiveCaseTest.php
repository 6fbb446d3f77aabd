<?php

declare(strict_types=1);

namespace PhpCryptoBench\Tests\Jwt;

use PhpCryptoBench\Exception\VerificationFailed;
use PhpCryptoBench\Jws\Algorithms;
use PhpCryptoBench\Jwt\JwtCase;
use PhpCryptoBench\Jwt\JwtScheme;
use PhpCryptoBench\Jwt\PrimitiveCase;
use PhpCryptoBench\Tests\Support\SharedKeys;
use PHPUnit\Framework\TestCase;
use PHPUnit\Framework\Attributes\DataProvider;

/** The raw primitive under each JWS algorithm: checked against the JWS layer, then timed and checked. */
final class PrimitiveCaseTest extends TestCase
{
    /** @var array<string, mixed> each algorithm's private key, made once: an RSA key costs a tenth of a second */
    private static array $keys = [];

    /** @return iterable<string, array{string, string}> */
    public static function algorithms(): iterable
    {
        foreach (Algorithms::NAMES as $alg) {
            yield $alg => [$alg];
        }
    }

    /** @dataProvider algorithms */
    #[DataProvider('algorithms')]
    public function testSignsAndVerifiesTheTokensSigningInputAndChecksEveryRun(string $alg): void
    {
        $scheme = JwtScheme::named($alg);
        $private = self::keyFor($scheme);
        $token = (new JwtCase($scheme, JwtCase::VERIFY, 100, $private))->token();
        foreach ([JwtCase::SIGN, JwtCase::VERIFY] as $operation) {
            $case = new PrimitiveCase($scheme, $operation, $scheme->signingKey($private), $scheme->verificationKey($private), $token);
            self::assertSame(substr($token, 0, (int) strrpos($token, '.')), $case->signingInput());
            self::assertSame(['alg' => $alg, 'operation' => $operation, 'layer' => 'primitive'], $case->key());
            $case->run(3);
            $case->verifyLastRun();
        }
    }

    /** @return iterable<string, array{string}> */
    public static function deterministicAndNot(): iterable
    {
        yield 'RS256: the same bytes expected' => ['RS256'];
        yield 'ES256: a signature that verifies expected' => ['ES256'];
        yield 'PS256: openssl_sign and openssl_verify with the RSASSA-PSS key' => ['PS256'];
        yield 'HS256' => ['HS256'];
    }

    /** @dataProvider deterministicAndNot */
    #[DataProvider('deterministicAndNot')]
    public function testATokenFromAnotherKeyIsRefusedBeforeTiming(string $alg): void
    {
        $scheme = JwtScheme::named($alg);
        $private = self::keyFor($scheme);
        $foreign = (new JwtCase($scheme, JwtCase::VERIFY, 100, self::otherKeyFor($scheme)))->token();
        $this->expectException(VerificationFailed::class);
        new PrimitiveCase($scheme, JwtCase::VERIFY, $scheme->signingKey($private), $scheme->verificationKey($private), $foreign);
    }

    /** @return iterable<string, array{string, string, int}> */
    public static function natives(): iterable
    {
        yield 'ES256' => ['ES256', 'ecdsap256', 0];
        yield 'ES512 (P-521)' => ['ES512', 'ecdsap521', 0];
        yield 'RS384 (an RSA-2048 key)' => ['RS384', 'rsa2048', 0];
        yield 'PS512 (an RSA-2048 key)' => ['PS512', 'rsa2048', 0];
        yield 'EdDSA' => ['EdDSA', 'ed25519', 0];
        yield 'HS384 on the signing input\'s length' => ['HS384', 'hmac-sha384', 231];
    }

    /** @dataProvider natives */
    #[DataProvider('natives')]
    public function testEachAlgorithmNamesItsOpensslSpeedCounterpart(string $alg, string $native, int $block): void
    {
        $primitive = JwtScheme::named($alg)->nativePrimitive(231);
        self::assertSame([$native, $block], [$primitive->name, $primitive->blockBytes]);
    }

    /** The six RS and PS algorithms take the same kind of key, RSA-2048: they share the suite's one. */
    private static function keyFor(JwtScheme $scheme): mixed
    {
        if ($scheme->keyType === 'RSA') {
            return SharedKeys::rsa($scheme->keyBits);
        }
        return self::$keys[$scheme->name()] ??= $scheme->generate();
    }

    /** A key that is never keyFor()'s: the suite's second RSA key of the size, or a fresh one. */
    private static function otherKeyFor(JwtScheme $scheme): mixed
    {
        return $scheme->keyType === 'RSA' ? SharedKeys::otherRsa($scheme->keyBits) : $scheme->generate();
    }
}
