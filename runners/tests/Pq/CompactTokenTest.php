<?php

declare(strict_types=1);

namespace PhpCryptoBench\Tests\Pq;

use PhpCryptoBench\Exception\AlgorithmNotAllowed;
use PhpCryptoBench\Exception\SignatureRejected;
use PhpCryptoBench\Jws\Base64Url;
use PhpCryptoBench\Jwt\JwtCase;
use PhpCryptoBench\Pq\CliKeys;
use PhpCryptoBench\Pq\CompactToken;
use PhpCryptoBench\Pq\KeyPair;
use PhpCryptoBench\Pq\LoadCase;
use PhpCryptoBench\Pq\PqScheme;
use PhpCryptoBench\Pq\SignCase;
use PhpCryptoBench\Pq\Tampering;
use PHPUnit\Framework\TestCase;

/**
 * Tokens, timed cases and tampering with keys the openssl command makes: the classical keys PHP 8.1+
 * signs with anywhere, and ML-DSA (and Ed25519 through openssl_sign, which needs PHP 8.4) where the
 * stack has them.
 */
final class CompactTokenTest extends TestCase
{
    /** @var array<string, string> each scheme's private key, made once by `openssl genpkey` (RSA-2048's costs a tenth of a CPU-second) */
    private static array $pems = [];

    /** The class's key pair of $scheme: its tests sign and verify with it, none changes it. */
    private static function pairOf(PqScheme $scheme): KeyPair
    {
        return KeyPair::fromPem($scheme, self::$pems[$scheme->name] ??= (new CliKeys())->generate($scheme));
    }

    /** @return list<string> the schemes this PHP can sign with through openssl_sign() */
    private static function signable(): array
    {
        return MlDsaStack::missing() === null ? array_map(static fn (PqScheme $s): string => $s->name, PqScheme::all()) : ['P-256', 'P-384', 'RSA-2048'];
    }

    public function testATokenSignedThroughOpensslSignVerifiesAndNamesItsJoseAlgorithm(): void
    {
        $claims = JwtCase::claims(100, 1_700_000_000);
        foreach (self::signable() as $name) {
            $scheme = PqScheme::named($name);
            $pair = self::pairOf($scheme);
            $token = CompactToken::sign($scheme, $pair->private, $claims);
            self::assertSame($claims, CompactToken::verify($scheme, $pair->public, $token), $name);
            [$header, , $signature] = explode('.', $token);
            self::assertSame(['alg' => $scheme->joseAlg, 'typ' => 'JWT'], json_decode(Base64Url::decode($header), true));
            $expected = $scheme->expectedSignatureBytes() ?? 2 * $scheme->coordinateBytes;
            self::assertSame($expected, strlen(Base64Url::decode($signature)), "$name: R‖S for ECDSA, FIPS 204's size for ML-DSA");
        }
    }

    public function testEachTimedCaseChecksItsLastRun(): void
    {
        foreach (self::signable() as $name) {
            $scheme = PqScheme::named($name);
            $pair = self::pairOf($scheme);
            foreach ([new SignCase($pair, SignCase::SIGN, 10, 0), new SignCase($pair, SignCase::VERIFY, 2048, 0), new LoadCase($pair, LoadCase::PRIVATE), new LoadCase($pair, LoadCase::PUBLIC)] as $case) {
                $case->run(2);
                $case->verifyLastRun();
            }
            self::assertSame(['algorithm' => $name, 'operation' => 'verify', 'payload_chars' => 2048], (new SignCase($pair, SignCase::VERIFY, 2048, 0))->key());
            self::assertSame(['algorithm' => $name, 'operation' => 'load_public', 'payload_chars' => 0], (new LoadCase($pair, LoadCase::PUBLIC))->key());
        }
    }

    public function testATokenForAnotherAlgorithmOrWithAShortSignatureIsRefused(): void
    {
        $p256 = PqScheme::named('P-256');
        $pair = self::pairOf($p256);
        $token = CompactToken::sign($p256, $pair->private, ['sub' => 'x']);
        try {
            CompactToken::verify(PqScheme::named('P-384'), $pair->public, $token);
            self::fail('an ES256 token checked as ES384 must be refused');
        } catch (AlgorithmNotAllowed $e) {
            self::assertSame('header alg: expected "ES384", the algorithm bound to this key, got "ES256"', $e->getMessage());
        }
        $this->expectException(SignatureRejected::class);
        $this->expectExceptionMessage('ES256: expected a 64-byte signature, got 63 bytes');
        [$header, $payload, $signature] = explode('.', $token);
        CompactToken::verify($p256, $pair->public, "$header.$payload." . Base64Url::encode(substr(Base64Url::decode($signature), 1)));
    }

    public function testEveryTamperingOfAnMlDsaTokenIsRefusedWhereMlDsaWorks(): void
    {
        if (!MlDsaStack::present()) {
            return;
        }
        $scheme = PqScheme::named('ML-DSA-65');
        $pair = self::pairOf($scheme);
        $another = KeyPair::fromPem($scheme, (new CliKeys())->generate($scheme));
        $refused = Tampering::refusals($pair, CompactToken::sign($scheme, $pair->private, ['sub' => 'x']), $another);
        self::assertSame([
            'ML-DSA-65 token with a bit of its signature flipped: ML-DSA-65: expected a signature that verifies with the key, got one that does not',
            'ML-DSA-65 token with a bit of its payload flipped: ML-DSA-65: expected a signature that verifies with the key, got one that does not',
            'ML-DSA-65 token with its signature one byte short: ML-DSA-65: expected a 3309-byte signature, got 3308 bytes',
            'ML-DSA-65 token with a header naming ML-DSA-44: header alg: expected "ML-DSA-65", the algorithm bound to this key, got "ML-DSA-44"',
            'ML-DSA-65 token checked with another ML-DSA-65 key: ML-DSA-65: expected a signature that verifies with the key, got one that does not',
        ], $refused);
    }
}
