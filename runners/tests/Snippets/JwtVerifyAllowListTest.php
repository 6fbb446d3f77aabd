<?php

declare(strict_types=1);

namespace PhpCryptoBench\Tests\Snippets;

use InvalidArgumentException;
use OpenSSLAsymmetricKey;
use PhpCryptoBench\Jws\Algorithms;
use PhpCryptoBench\Jws\Base64Url;
use PhpCryptoBench\Jws\CompactJws;
use PhpCryptoBench\Jws\Jwk;
use PhpCryptoBench\Jws\Key;
use RuntimeException;
use PHPUnit\Framework\Attributes\DataProvider;

/**
 * runners/snippets/jwt-verify-allow-list.php: keys from a JWK Set, each bound to its algorithm from an
 * allow-list; tokens the project's JWS code signs verify; every other algorithm, kid, signature, typ,
 * iss, aud, exp and nbf is refused with its reason.
 */
final class JwtVerifyAllowListTest extends SnippetTestCase
{
    private const ISSUER = 'https://issuer.example';
    private const AUDIENCE = 'https://api.example';
    private const NOW = 1_767_225_600; // 2026-01-01T00:00:00Z

    /** @var array<string, OpenSSLAsymmetricKey|string> kid => private key, one per algorithm */
    private static array $private = [];
    /** @var array<string, string> kid => its algorithm */
    private const KIDS = ['es-2026' => 'ES256', 'ed-2026' => 'EdDSA', 'ps-2026' => 'PS256', 'rs-2026' => 'RS256', 'es-2025' => 'ES256'];

    public static function snippet(): string
    {
        return 'jwt-verify-allow-list.php';
    }

    public static function setUpBeforeClass(): void
    {
        parent::setUpBeforeClass();
        $config = REPOSITORY . '/runners/openssl-minimal.cnf';
        $rsa = openssl_pkey_new(['private_key_type' => OPENSSL_KEYTYPE_RSA, 'private_key_bits' => 2048, 'config' => $config]);
        self::assertInstanceOf(OpenSSLAsymmetricKey::class, $rsa);
        foreach (self::KIDS as $kid => $alg) {
            self::$private[$kid] = match ($alg) {
                'ES256' => openssl_pkey_new(['private_key_type' => OPENSSL_KEYTYPE_EC, 'curve_name' => 'prime256v1', 'config' => $config]),
                'EdDSA' => sodium_crypto_sign_secretkey(sodium_crypto_sign_keypair()),
                default => $rsa,
            };
        }
    }

    /** @return array<string, mixed> the issuer's JWK Set: every key public, with its kid and alg */
    private static function jwks(): array
    {
        $keys = [];
        foreach (self::KIDS as $kid => $alg) {
            $keys[] = Jwk::publicOf(self::$private[$kid]) + ['kid' => $kid, 'alg' => $alg, 'use' => 'sig'];
        }
        return ['keys' => $keys];
    }

    /**
     * @param array<string, mixed> $claims merged over valid ones; a null value removes the claim
     * @param array<string, mixed> $header merged over {typ: JWT, kid: $kid}; a null value removes the member
     */
    private static function token(string $kid = 'es-2026', array $claims = [], array $header = []): string
    {
        $claims = array_filter($claims + ['iss' => self::ISSUER, 'aud' => self::AUDIENCE, 'sub' => 'alice', 'exp' => self::NOW + 300, 'nbf' => self::NOW - 60], static fn ($v): bool => $v !== null);
        $header = array_filter($header + ['typ' => 'JWT', 'kid' => $kid], static fn ($v): bool => $v !== null);
        return CompactJws::signClaims(Key::forSigning(Algorithms::named(self::KIDS[$kid]), self::$private[$kid]), $claims, $header);
    }

    /** @param array<string, mixed> ...$options jwt_verify()'s named arguments beyond the token */
    private static function verify(string $token, ...$options): array
    {
        return jwt_verify($token, jwt_keys_from_jwks(self::jwks()), self::ISSUER, self::AUDIENCE, ...($options + ['now' => self::NOW]));
    }

    /** @return iterable<string, array{string}> */
    public static function kids(): iterable
    {
        foreach (array_keys(self::KIDS) as $kid) {
            yield self::KIDS[$kid] . " ($kid)" => [$kid];
        }
    }

    /** @dataProvider kids */
    #[DataProvider('kids')]
    public function testATokenOfEachAllowedAlgorithmVerifiesAndItsClaimsComeBack(string $kid): void
    {
        $claims = self::verify(self::token($kid));
        self::assertSame(['iss' => self::ISSUER, 'aud' => self::AUDIENCE, 'sub' => 'alice', 'exp' => self::NOW + 300, 'nbf' => self::NOW - 60], $claims);
    }

    public function testEachKeyIsBoundToTheAlgorithmItsJwkNames(): void
    {
        $keys = jwt_keys_from_jwks(self::jwks());
        self::assertSame(array_keys(self::KIDS), array_keys($keys));
        foreach ($keys as $kid => $key) {
            self::assertSame(self::KIDS[$kid], $key->algorithm->name());
            self::assertFalse($key->signs);
        }
    }

    /** @return iterable<string, array{array<string, mixed>}> claims that are still valid */
    public static function validVariants(): iterable
    {
        yield 'aud as a list holding this verifier' => [['aud' => ['https://other.example', self::AUDIENCE]]];
        yield 'no nbf' => [['nbf' => null]];
        yield 'expiring within the leeway' => [['exp' => self::NOW - 29]];
        yield 'nbf within the leeway' => [['nbf' => self::NOW + 29]];
    }

    /**
     * @dataProvider validVariants
     * @param array<string, mixed> $claims
     */
     #[DataProvider('validVariants')]
    public function testValidVariantsVerify(array $claims): void
    {
        self::assertSame('alice', self::verify(self::token('es-2026', $claims))['sub']);
    }

    public function testTypIsComparedWithoutCase(): void
    {
        // typ is a media type (RFC 7515 section 4.1.9): case-insensitive.
        self::assertSame('alice', self::verify(self::token('es-2026', [], ['typ' => 'jwt']))['sub']);
    }

    /** @return iterable<string, array{callable(): string, string}> a token => why it is refused */
    public static function refused(): iterable
    {
        $other = static fn (string $kid, string $asKid): string => self::token($kid, [], ['kid' => $asKid]);
        yield 'no kid' => [static fn (): string => self::token('es-2026', [], ['kid' => null]), 'header kid: expected one of ["es-2026","ed-2026","ps-2026","rs-2026","es-2025"], got null'];
        yield 'a kid the issuer does not publish' => [static fn (): string => self::token('es-2026', [], ['kid' => 'es-2024']), 'header kid: expected one of ["es-2026","ed-2026","ps-2026","rs-2026","es-2025"], got "es-2024"'];
        yield 'the kid of another key of the same algorithm' => [static fn (): string => $other('es-2025', 'es-2026'), 'ES256: expected a signature that verifies'];
        yield 'the kid of a key of another algorithm' => [static fn (): string => $other('ps-2026', 'rs-2026'), '"PS256"'];
        yield 'alg none' => [static fn (): string => self::unsigned(['alg' => 'none', 'typ' => 'JWT', 'kid' => 'es-2026']), '"none"'];
        yield 'HS256 keyed with the public key' => [static fn (): string => self::hs256WithPublicKey(), '"HS256"'];
        yield 'the signature changed' => [static fn (): string => self::changed(self::token(), 2, -1), 'ES256: expected a signature that verifies'];
        yield 'the payload changed' => [static fn (): string => self::changed(self::token(), 1, 3), 'ES256: expected a signature that verifies'];
        yield 'no typ' => [static fn (): string => self::token('es-2026', [], ['typ' => null]), 'header typ: expected "JWT", got null'];
        yield 'a typ of another purpose' => [static fn (): string => self::token('es-2026', [], ['typ' => 'at+jwt']), 'header typ: expected "JWT", got "at+jwt"'];
        yield 'another issuer' => [static fn (): string => self::token('es-2026', ['iss' => 'https://evil.example']), 'iss: expected "https://issuer.example", got "https://evil.example"'];
        yield 'no issuer' => [static fn (): string => self::token('es-2026', ['iss' => null]), 'iss: expected "https://issuer.example", got null'];
        yield 'another audience' => [static fn (): string => self::token('es-2026', ['aud' => 'https://other.example']), 'aud: expected "https://api.example" among the audiences, got "https://other.example"'];
        yield 'a list of other audiences' => [static fn (): string => self::token('es-2026', ['aud' => ['https://other.example']]), 'aud: expected "https://api.example" among the audiences, got ["https://other.example"]'];
        yield 'no audience' => [static fn (): string => self::token('es-2026', ['aud' => null]), 'aud: expected "https://api.example" among the audiences, got null'];
        // aud is compared exactly: not as a prefix, not without case, and only as a string or a list of strings (RFC 7519 section 4.1.3).
        yield 'an audience this one is a prefix of' => [static fn (): string => self::token('es-2026', ['aud' => 'https://api.example.evil']), 'aud: expected "https://api.example" among the audiences, got "https://api.example.evil"'];
        yield 'an audience that is a prefix of this one' => [static fn (): string => self::token('es-2026', ['aud' => 'https://api.exampl']), 'got "https://api.exampl"'];
        yield 'this audience in capitals' => [static fn (): string => self::token('es-2026', ['aud' => 'HTTPS://API.EXAMPLE']), 'got "HTTPS://API.EXAMPLE"'];
        yield 'a list holding an audience this one is a prefix of' => [static fn (): string => self::token('es-2026', ['aud' => ['https://api.example.evil']]), 'got ["https://api.example.evil"]'];
        yield 'a list holding true' => [static fn (): string => self::token('es-2026', ['aud' => [true]]), 'aud: expected "https://api.example" among the audiences, got [true]'];
        yield 'an empty list' => [static fn (): string => self::token('es-2026', ['aud' => []]), 'aud: expected "https://api.example" among the audiences, got []'];
        yield 'a list holding this audience and a number' => [static fn (): string => self::token('es-2026', ['aud' => [self::AUDIENCE, 42]]), 'got ["https://api.example",42]'];
        yield 'a list holding this audience and null' => [static fn (): string => self::token('es-2026', ['aud' => [null, self::AUDIENCE]]), 'got [null,"https://api.example"]'];
        yield 'a list holding this audience twice, once in a list' => [static fn (): string => self::token('es-2026', ['aud' => [self::AUDIENCE, [self::AUDIENCE]]]), 'got ["https://api.example",["https://api.example"]]'];
        yield 'an object holding this audience' => [static fn (): string => self::token('es-2026', ['aud' => ['to' => self::AUDIENCE]]), 'got {"to":"https://api.example"}'];
        yield 'aud true' => [static fn (): string => self::token('es-2026', ['aud' => true]), 'aud: expected "https://api.example" among the audiences, got true'];
        yield 'aud a number' => [static fn (): string => self::token('es-2026', ['aud' => 1]), 'aud: expected "https://api.example" among the audiences, got 1'];
        // iss likewise: one string, the issuer's exactly.
        yield 'iss true' => [static fn (): string => self::token('es-2026', ['iss' => true]), 'iss: expected "https://issuer.example", got true'];
        yield 'iss a number' => [static fn (): string => self::token('es-2026', ['iss' => 0]), 'iss: expected "https://issuer.example", got 0'];
        yield 'an issuer this one is a prefix of' => [static fn (): string => self::token('es-2026', ['iss' => 'https://issuer.example.evil']), 'iss: expected "https://issuer.example", got "https://issuer.example.evil"'];
        yield 'this issuer in a list' => [static fn (): string => self::token('es-2026', ['iss' => [self::ISSUER]]), 'iss: expected "https://issuer.example", got ["https://issuer.example"]'];
        yield 'expired beyond the leeway' => [static fn (): string => self::token('es-2026', ['exp' => self::NOW - 30]), 'exp: expired at 1767225570, it is 1767225600 (leeway 30 s)'];
        yield 'no exp' => [static fn (): string => self::token('es-2026', ['exp' => null]), 'exp: expected a NumericDate (whole seconds), got null'];
        yield 'exp as a string' => [static fn (): string => self::token('es-2026', ['exp' => '1767225900']), 'exp: expected a NumericDate (whole seconds), got "1767225900"'];
        yield 'not valid yet beyond the leeway' => [static fn (): string => self::token('es-2026', ['nbf' => self::NOW + 31]), 'nbf: not valid before 1767225631, it is 1767225600 (leeway 30 s)'];
        yield 'nbf as a string' => [static fn (): string => self::token('es-2026', ['nbf' => 'now']), 'nbf: expected a NumericDate (whole seconds), got "now"'];
        yield 'four parts' => [static fn (): string => self::token() . '.' . Base64Url::encode('more'), 'expected 3 parts separated by dots, got 4'];
        yield 'two parts' => [static fn (): string => substr(self::token(), 0, (int) strrpos(self::token(), '.')), 'expected 3 parts separated by dots, got 2'];
    }

    /**
     * @dataProvider refused
     * @param callable(): string $token
     */
     #[DataProvider('refused')]
    public function testATokenIsRefusedWithTheReason(callable $token, string $reason): void
    {
        try {
            self::verify($token());
            self::fail('expected the token to be refused');
        } catch (RuntimeException $e) {
            self::assertStringStartsWith('the token was refused: ', $e->getMessage());
            self::assertStringContainsString($reason, $e->getMessage());
            self::assertSame(0, $e->getCode());
            self::assertNotNull($e->getPrevious(), 'the reason, kept');
        }
    }

    /**
     * RFC 7519: a token is refused on or after exp (section 4.1.4) and before nbf (section 4.1.5); the
     * leeway moves both by its seconds. Each boundary from both sides, without leeway and with the default 30 s.
     *
     * @return iterable<string, array{array<string, mixed>, int, string|null}> claims, leeway => the refusal, or null when valid
     */
    public static function timeBoundaries(): iterable
    {
        yield 'no leeway: one second before exp' => [['exp' => self::NOW + 1], 0, null];
        yield 'no leeway: now is exp' => [['exp' => self::NOW], 0, 'exp: expired at 1767225600, it is 1767225600 (leeway 0 s)'];
        yield 'no leeway: one second after exp' => [['exp' => self::NOW - 1], 0, 'exp: expired at 1767225599, it is 1767225600 (leeway 0 s)'];
        yield 'no leeway: now is nbf' => [['nbf' => self::NOW], 0, null];
        yield 'no leeway: one second before nbf' => [['nbf' => self::NOW + 1], 0, 'nbf: not valid before 1767225601, it is 1767225600 (leeway 0 s)'];
        yield 'no leeway: one second after nbf' => [['nbf' => self::NOW - 1], 0, null];
        yield '30 s: one second before exp + leeway' => [['exp' => self::NOW - 29], 30, null];
        yield '30 s: now is exp + leeway' => [['exp' => self::NOW - 30], 30, 'exp: expired at 1767225570, it is 1767225600 (leeway 30 s)'];
        yield '30 s: now is exp' => [['exp' => self::NOW], 30, null];
        yield '30 s: now is nbf - leeway' => [['nbf' => self::NOW + 30], 30, null];
        yield '30 s: one second before nbf - leeway' => [['nbf' => self::NOW + 31], 30, 'nbf: not valid before 1767225631, it is 1767225600 (leeway 30 s)'];
        yield '30 s: now is nbf' => [['nbf' => self::NOW], 30, null];
    }

    /**
     * @dataProvider timeBoundaries
     * @param array<string, mixed> $claims
     */
     #[DataProvider('timeBoundaries')]
    public function testExpAndNbfAtTheirBoundaries(array $claims, int $leeway, ?string $refusal): void
    {
        $token = self::token('es-2026', $claims);
        if ($refusal === null) {
            self::assertSame('alice', self::verify($token, leewaySeconds: $leeway)['sub']);
            return;
        }
        $this->expectException(RuntimeException::class);
        $this->expectExceptionMessage('the token was refused: ' . $refusal);
        self::verify($token, leewaySeconds: $leeway);
    }

    public function testTheDefaultLeewayIs30Seconds(): void
    {
        $keys = jwt_keys_from_jwks(self::jwks());
        self::assertSame('alice', jwt_verify(self::token('es-2026', ['exp' => self::NOW - 29, 'nbf' => self::NOW + 30]), $keys, self::ISSUER, self::AUDIENCE, self::NOW)['sub']);
        $this->expectExceptionMessage('(leeway 30 s)');
        jwt_verify(self::token('es-2026', ['exp' => self::NOW - 30]), $keys, self::ISSUER, self::AUDIENCE, self::NOW);
    }

    /** @return iterable<string, array{array<string, mixed>, string, string}> claims, issuer, audience => the refusal */
    public static function numericLookingClaims(): iterable
    {
        // "1e3" == "1000" in PHP: a loose comparison would take one for the other.
        yield 'iss' => [['iss' => '1e3'], '1000', self::AUDIENCE, 'iss: expected "1000", got "1e3"'];
        yield 'aud as a string' => [['aud' => '1e3'], self::ISSUER, '1000', 'aud: expected "1000" among the audiences, got "1e3"'];
        yield 'aud as a list' => [['aud' => ['1e3']], self::ISSUER, '1000', 'aud: expected "1000" among the audiences, got ["1e3"]'];
    }

    /**
     * @dataProvider numericLookingClaims
     * @param array<string, mixed> $claims
     */
     #[DataProvider('numericLookingClaims')]
    public function testIssAndAudAreComparedAsStringsEvenWhenTheyLookNumeric(array $claims, string $issuer, string $audience, string $refusal): void
    {
        $keys = jwt_keys_from_jwks(self::jwks());
        $valid = self::token('es-2026', ['iss' => $issuer, 'aud' => $audience]);
        self::assertSame('alice', jwt_verify($valid, $keys, $issuer, $audience, self::NOW)['sub']);
        $this->expectException(RuntimeException::class);
        $this->expectExceptionMessage('the token was refused: ' . $refusal);
        jwt_verify(self::token('es-2026', $claims + ['iss' => $issuer, 'aud' => $audience]), $keys, $issuer, $audience, self::NOW);
    }

    public function testTheLeewayIsTheCallers(): void
    {
        $token = self::token('es-2026', ['exp' => self::NOW - 5]);
        self::assertSame('alice', self::verify($token, leewaySeconds: 10)['sub']);
        $this->expectException(RuntimeException::class);
        $this->expectExceptionMessage('exp: expired at 1767225595, it is 1767225600 (leeway 0 s)');
        self::verify($token, leewaySeconds: 0);
    }

    /**
     * Each JWK Set is made when its test runs: the keys exist only after setUpBeforeClass().
     *
     * @return iterable<string, array{callable(): array<string, mixed>, string}> a JWK Set => why it is refused
     */
    public static function refusedKeySets(): iterable
    {
        $es = static fn (array $extra): array => Jwk::publicOf(self::$private['es-2026']) + $extra;
        $rs = static fn (array $extra): array => Jwk::publicOf(self::$private['rs-2026']) + $extra;
        $hs = static fn (): array => ['kty' => 'oct', 'k' => Base64Url::encode(random_bytes(32)), 'kid' => 'a', 'alg' => 'HS256'];
        yield 'not a JWK Set' => [static fn (): array => ['kty' => 'EC'], 'expected a JWK Set: an object whose "keys" member is a list of JWKs'];
        yield 'keys not a list but a string' => [static fn (): array => ['keys' => 'https://issuer.example/jwks.json'], 'expected a JWK Set: an object whose "keys" member is a list of JWKs'];
        yield 'keys an object of JWKs, not a list' => [static fn (): array => ['keys' => ['a' => $es(['kid' => 'a', 'alg' => 'ES256'])]], 'expected a JWK Set: an object whose "keys" member is a list of JWKs'];
        yield 'a key without kid' => [static fn (): array => ['keys' => [$es(['alg' => 'ES256'])]], 'key 0: expected a JWK with a kid of its own, got none'];
        yield 'a key with an empty kid' => [static fn (): array => ['keys' => [$es(['kid' => '', 'alg' => 'ES256'])]], 'key 0: expected a JWK with a kid of its own, got '];
        yield 'a kid twice' => [static fn (): array => ['keys' => [$es(['kid' => 'a', 'alg' => 'ES256']), $es(['kid' => 'a', 'alg' => 'ES256'])]], 'key 1: expected a JWK with a kid of its own, got kid "a" again'];
        yield 'a key without alg' => [static fn (): array => ['keys' => [$es(['kid' => 'a'])]], 'key "a": expected alg to be one of ES256, EdDSA, PS256, RS256, got none'];
        yield 'HS256, not in the allow-list' => [static fn (): array => ['keys' => [$hs()]], 'key "a": expected alg to be one of ES256, EdDSA, PS256, RS256, got "HS256"'];
        yield 'a private EC key' => [static fn (): array => ['keys' => [$es(['d' => Base64Url::encode(random_bytes(32)), 'kid' => 'a', 'alg' => 'ES256'])]], 'key "a": expected a public key, got a private or secret one'];
        yield 'a private Ed25519 key' => [static fn (): array => ['keys' => [Jwk::publicOf(self::$private['ed-2026']) + ['d' => Base64Url::encode(substr((string) self::$private['ed-2026'], 0, 32)), 'kid' => 'a', 'alg' => 'EdDSA']]], 'key "a": expected a public key, got a private or secret one'];
        yield 'an EC key with an empty private member' => [static fn (): array => ['keys' => [$es(['d' => '', 'kid' => 'a', 'alg' => 'ES256'])]], 'key "a": expected a public key, got a private or secret one'];
        yield 'a private RSA key' => [static fn (): array => ['keys' => [$rs(['d' => Base64Url::encode(random_bytes(256)), 'kid' => 'a', 'alg' => 'RS256'])]], 'key "a": expected a public key, got a private or secret one'];
        yield 'a P-256 key labelled ES384' => [static fn (): array => ['keys' => [$es(['kid' => 'a', 'alg' => 'ES384'])]], 'key "a": expected alg to be one of ES256, EdDSA, PS256, RS256, got "ES384"'];
        yield 'an RSA key labelled ES256' => [static fn (): array => ['keys' => [$rs(['kid' => 'a', 'alg' => 'ES256'])]], 'key "a": '];
        yield 'a key published for encryption' => [static fn (): array => ['keys' => [$es(['kid' => 'a', 'alg' => 'ES256', 'use' => 'enc'])]], 'key "a": '];
    }

    /**
     * @dataProvider refusedKeySets
     * @param callable(): array<string, mixed> $jwks
     */
     #[DataProvider('refusedKeySets')]
    public function testAKeySetWithAKeyOutsideTheRulesIsRefusedWhereItIsLoaded(callable $jwks, string $reason): void
    {
        $this->expectException(InvalidArgumentException::class);
        $this->expectExceptionMessage($reason);
        jwt_keys_from_jwks($jwks());
    }

    public function testAShortRsaKeyIsRefusedWhereItIsLoaded(): void
    {
        $short = openssl_pkey_new(['private_key_type' => OPENSSL_KEYTYPE_RSA, 'private_key_bits' => 1024, 'config' => REPOSITORY . '/runners/openssl-minimal.cnf']);
        self::assertInstanceOf(OpenSSLAsymmetricKey::class, $short);
        try {
            jwt_keys_from_jwks(['keys' => [Jwk::publicOf($short) + ['kid' => 'old', 'alg' => 'RS256']]]);
            self::fail('expected the 1024-bit key to be refused');
        } catch (InvalidArgumentException $e) {
            self::assertMatchesRegularExpression('/^key "old": .*1024/', $e->getMessage());
            self::assertSame(0, $e->getCode());
            self::assertInstanceOf(RuntimeException::class, $e->getPrevious(), 'the reason, kept');
        }
    }

    public function testASecretKeyIsRefusedEvenWhereTheCallerAllowsItsAlgorithm(): void
    {
        // An HMAC secret in a JWK Set: whoever reads the set can forge tokens. Not a key a verifier may hold.
        foreach ([Base64Url::encode(random_bytes(32)), ''] as $k) {
            try {
                jwt_keys_from_jwks(['keys' => [['kty' => 'oct', 'k' => $k, 'kid' => 'hs', 'alg' => 'HS256']]], ['HS256']);
                self::fail(sprintf('expected the secret key (k "%s") to be refused', $k));
            } catch (InvalidArgumentException $e) {
                self::assertSame('key "hs": expected a public key, got a private or secret one', $e->getMessage());
            }
        }
    }

    public function testAnEmptyJwkSetGivesNoKeys(): void
    {
        // Valid (RFC 7517 section 5), and every token is then refused at its kid.
        $keys = jwt_keys_from_jwks(['keys' => []]);
        self::assertSame([], $keys);
        $this->expectExceptionMessage('the token was refused: header kid: expected one of [], got "es-2026"');
        jwt_verify(self::token(), $keys, self::ISSUER, self::AUDIENCE, self::NOW);
    }

    public function testTheAllowListIsComparedExactly(): void
    {
        // "1e3" == "1000" in PHP: a loose in_array() would let an algorithm in that the list does not name.
        $this->expectException(InvalidArgumentException::class);
        $this->expectExceptionMessage('key "a": expected alg to be one of 1e3, got "1000"');
        jwt_keys_from_jwks(['keys' => [Jwk::publicOf(self::$private['es-2026']) + ['kid' => 'a', 'alg' => '1000']]], ['1e3']);
    }

    public function testAKidIsAStringInTheHeaderToo(): void
    {
        // PHP makes an array key of "5" the integer 5: a header kid 5 must still not find the key "5".
        $keys = jwt_keys_from_jwks(['keys' => [Jwk::publicOf(self::$private['es-2026']) + ['kid' => '5', 'alg' => 'ES256']]]);
        $signer = Key::forSigning(Algorithms::named('ES256'), self::$private['es-2026']);
        $claims = ['iss' => self::ISSUER, 'aud' => self::AUDIENCE, 'sub' => 'alice', 'exp' => self::NOW + 300];
        self::assertSame('alice', jwt_verify(CompactJws::signClaims($signer, $claims, ['typ' => 'JWT', 'kid' => '5']), $keys, self::ISSUER, self::AUDIENCE, self::NOW)['sub']);
        $this->expectException(RuntimeException::class);
        $this->expectExceptionMessage('the token was refused: header kid: expected one of [5], got 5');
        jwt_verify(CompactJws::signClaims($signer, $claims, ['typ' => 'JWT', 'kid' => 5]), $keys, self::ISSUER, self::AUDIENCE, self::NOW);
    }

    /**
     * Signed payloads that are not a JSON object of claims, each refused with its reason. The signature is
     * valid: only the holder of the issuer's key could send these.
     *
     * @return iterable<string, array{string, string}> payload => the refusal
     */
    public static function payloads(): iterable
    {
        yield 'not JSON' => ['iss=https://issuer.example', 'the token was refused: Syntax error'];
        yield 'a list' => ['["https://issuer.example"]', 'the token was refused: payload: expected a JSON object of claims'];
        yield 'a string' => ['"https://issuer.example"', 'the token was refused: payload: expected a JSON object of claims'];
        yield 'a number' => ['1', 'the token was refused: payload: expected a JSON object of claims'];
        yield 'null' => ['null', 'the token was refused: payload: expected a JSON object of claims'];
        // [] and {} decode alike: an empty object, which has no iss.
        yield 'an empty list' => ['[]', 'the token was refused: iss: expected "https://issuer.example", got null'];
        yield 'an empty object' => ['{}', 'the token was refused: iss: expected "https://issuer.example", got null'];
        yield 'nested 65 deep' => [self::claimsNested(64), 'the token was refused: Maximum stack depth exceeded'];
        // An integer beyond PHP's is kept as its digits, never rounded to a float.
        yield 'exp beyond 64 bits' => ['{"iss":"https://issuer.example","aud":"https://api.example","exp":99999999999999999999}', 'the token was refused: exp: expected a NumericDate (whole seconds), got "99999999999999999999"'];
        yield 'nbf null' => ['{"iss":"https://issuer.example","aud":"https://api.example","exp":1767225900,"nbf":null}', 'the token was refused: nbf: expected a NumericDate (whole seconds), got null'];
    }

    /** @dataProvider payloads */
    #[DataProvider('payloads')]
    public function testASignedPayloadThatIsNotAValidClaimsSetIsRefused(string $payload, string $refusal): void
    {
        $token = CompactJws::sign(Key::forSigning(Algorithms::named('ES256'), self::$private['es-2026']), $payload, ['typ' => 'JWT', 'kid' => 'es-2026']);
        try {
            self::verify($token);
            self::fail('expected the token to be refused');
        } catch (RuntimeException $e) {
            self::assertSame($refusal, $e->getMessage());
            self::assertSame(0, $e->getCode());
            self::assertNotNull($e->getPrevious(), 'the reason, kept');
        }
    }

    public function testClaimsNested64DeepAreRead(): void
    {
        $token = CompactJws::sign(Key::forSigning(Algorithms::named('ES256'), self::$private['es-2026']), self::claimsNested(63), ['typ' => 'JWT', 'kid' => 'es-2026']);
        self::assertSame('alice', self::verify($token)['sub']);
    }

    /** Valid claims with a member nested so that the whole set is $levels + 1 deep (the innermost value counts). */
    private static function claimsNested(int $levels): string
    {
        $value = 1;
        for ($i = 1; $i < $levels; $i++) {
            $value = ['n' => $value];
        }
        return (string) json_encode(['iss' => self::ISSUER, 'aud' => self::AUDIENCE, 'sub' => 'alice', 'exp' => self::NOW + 300, 'n' => $value]);
    }

    /** @return iterable<string, array{string, array<string, mixed>|string}> the header's JSON => what it decodes to, or the refusal */
    public static function unverifiedHeaders(): iterable
    {
        yield 'an object' => ['{"alg":"ES256","kid":"es-2026"}', ['alg' => 'ES256', 'kid' => 'es-2026']];
        yield 'an empty object' => ['{}', []];
        yield 'an empty list (as {})' => ['[]', []];
        yield 'nested 16 deep' => [self::nested(16), ['n' => json_decode(self::nested(15), true)]];
        yield 'nested 17 deep' => [self::nested(17), 'Maximum stack depth exceeded'];
        yield 'a list' => ['["ES256"]', 'header: expected a JSON object'];
        yield 'a string' => ['"ES256"', 'header: expected a JSON object'];
        yield 'a number' => ['1', 'header: expected a JSON object'];
        yield 'null' => ['null', 'header: expected a JSON object'];
    }

    /**
     * @dataProvider unverifiedHeaders
     * @param array<string, mixed>|string $expected
     */
    #[DataProvider('unverifiedHeaders')]
    public function testTheUnverifiedHeaderIsAJsonObjectAtMost16Deep(string $json, array|string $expected): void
    {
        $token = Base64Url::encode($json) . '.e30.c2ln';
        if (is_array($expected)) {
            self::assertSame($expected, jwt_unverified_header($token));
            return;
        }
        $this->expectExceptionMessage($expected);
        jwt_unverified_header($token);
    }

    /** A JSON object $levels deep, the innermost value counted: {"n":{"n":...1}}. */
    private static function nested(int $levels): string
    {
        $value = 1;
        for ($i = 1; $i < $levels; $i++) {
            $value = ['n' => $value];
        }
        return (string) json_encode($value);
    }

    public function testTheAllowListIsTheCallers(): void
    {
        $keys = jwt_keys_from_jwks(['keys' => [Jwk::publicOf(self::$private['ed-2026']) + ['kid' => 'ed', 'alg' => 'EdDSA']]], ['EdDSA']);
        self::assertSame(['ed'], array_keys($keys));
        $this->expectException(InvalidArgumentException::class);
        $this->expectExceptionMessage('key "es": expected alg to be one of EdDSA, got "ES256"');
        jwt_keys_from_jwks(['keys' => [Jwk::publicOf(self::$private['es-2026']) + ['kid' => 'es', 'alg' => 'ES256']]], ['EdDSA']);
    }

    /** @param array<string, mixed> $header */
    private static function unsigned(array $header): string
    {
        $claims = ['iss' => self::ISSUER, 'aud' => self::AUDIENCE, 'exp' => self::NOW + 300];
        return Base64Url::encode((string) json_encode($header)) . '.' . Base64Url::encode((string) json_encode($claims)) . '.';
    }

    /** The attack RFC 8725 section 2.1 describes: an HMAC whose secret is the verifier's RSA public key (PEM). */
    private static function hs256WithPublicKey(): string
    {
        $pem = (string) openssl_pkey_get_details(self::$private['rs-2026'])['key'];
        $input = Base64Url::encode((string) json_encode(['alg' => 'HS256', 'typ' => 'JWT', 'kid' => 'rs-2026'])) . '.'
            . Base64Url::encode((string) json_encode(['iss' => self::ISSUER, 'aud' => self::AUDIENCE, 'exp' => self::NOW + 300]));
        return $input . '.' . Base64Url::encode(hash_hmac('sha256', $input, $pem, true));
    }

    /** $token with one base64url character of part $part changed, at $offset (negative: from its end). */
    private static function changed(string $token, int $part, int $offset): string
    {
        $parts = explode('.', $token);
        $bytes = Base64Url::decode($parts[$part]);
        $parts[$part] = Base64Url::encode(self::flipped($bytes, $offset < 0 ? strlen($bytes) + $offset : $offset));
        return implode('.', $parts);
    }
}
