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
 * allow-list and to what its kty and crv allow; tokens the project's JWS code (and libsodium, for the
 * RFC 9864 name Ed25519) signs verify; every other algorithm, kid, signature, typ, iss, aud, exp, nbf
 * and lifetime is refused, with one message to the caller and the reason kept behind it.
 */
final class JwtVerifyAllowListTest extends SnippetTestCase
{
    private const ISSUER = 'https://issuer.example';
    private const AUDIENCE = 'https://api.example';
    private const NOW = 1_767_225_600; // 2026-01-01T00:00:00Z

    /** @var array<string, OpenSSLAsymmetricKey|string> kid => private key, one per algorithm */
    private static array $private = [];
    /** @var array<string, string> kid => its algorithm */
    private const KIDS = ['es-2026' => 'ES256', 'ed-2026' => 'Ed25519', 'ps-2026' => 'PS256', 'rs-2026' => 'RS256', 'es-2025' => 'ES256', 'ed-2025' => 'EdDSA'];
    private const REFUSED = 'the token was refused';
    private const DEFAULT_ALLOWED = 'ES256, Ed25519, EdDSA, PS256, RS256';

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
                'EdDSA', 'Ed25519' => sodium_crypto_sign_secretkey(sodium_crypto_sign_keypair()),
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
        $claims = array_filter($claims + ['iss' => self::ISSUER, 'aud' => self::AUDIENCE, 'sub' => 'alice', 'exp' => self::NOW + 300, 'nbf' => self::NOW - 60, 'iat' => self::NOW - 60], static fn ($v): bool => $v !== null);
        $header = array_filter($header + ['typ' => 'JWT', 'kid' => $kid], static fn ($v): bool => $v !== null);
        return self::signed(self::KIDS[$kid], self::$private[$kid], (string) json_encode($claims, JSON_UNESCAPED_SLASHES), $header);
    }

    /**
     * A compact JWS of $payload under $alg: Ed25519 (RFC 9864's name) signed by libsodium, the others by
     * the project's JWS code (EdDSA, ES256, PS256, RS256).
     *
     * @param array<string, mixed> $header
     */
    private static function signed(string $alg, OpenSSLAsymmetricKey|string $private, string $payload, array $header): string
    {
        if ($alg !== 'Ed25519') {
            return CompactJws::sign(Key::forSigning(Algorithms::named($alg), $private), $payload, $header);
        }
        $input = Base64Url::encode((string) json_encode(['alg' => 'Ed25519'] + $header, JSON_UNESCAPED_SLASHES)) . '.' . Base64Url::encode($payload);
        return $input . '.' . Base64Url::encode(sodium_crypto_sign_detached($input, (string) $private));
    }

    /** Asserts that $verify refuses: the caller's message says only that, and the reason is kept behind it. */
    private static function assertRefused(callable $verify, string $reason, bool $exact = false): void
    {
        try {
            $verify();
            self::fail('expected the token to be refused');
        } catch (RuntimeException $e) {
            self::assertSame(self::REFUSED, $e->getMessage(), 'one message for every failure');
            self::assertSame(0, $e->getCode());
            self::assertNotNull($e->getPrevious(), 'the reason, kept');
            if ($exact) {
                self::assertSame($reason, $e->getPrevious()->getMessage());
            } else {
                self::assertStringContainsString($reason, $e->getPrevious()->getMessage());
            }
        }
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
        self::assertSame(['iss' => self::ISSUER, 'aud' => self::AUDIENCE, 'sub' => 'alice', 'exp' => self::NOW + 300, 'nbf' => self::NOW - 60, 'iat' => self::NOW - 60], $claims);
    }

    public function testEachKeyIsBoundToTheAlgorithmItsJwkNames(): void
    {
        $keys = jwt_keys_from_jwks(self::jwks());
        self::assertSame(array_keys(self::KIDS), array_keys($keys));
        foreach ($keys as $kid => $key) {
            self::assertSame(self::KIDS[$kid], $key['alg']);
            self::assertSame(in_array($kid, ['ed-2026', 'ed-2025'], true) ? ['Ed25519', 'EdDSA'] : [self::KIDS[$kid]], $key['algs']);
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
        yield 'no kid' => [static fn (): string => self::token('es-2026', [], ['kid' => null]), 'header kid: expected one of the key set\'s kids, got null'];
        yield 'a kid the issuer does not publish' => [static fn (): string => self::token('es-2026', [], ['kid' => 'es-2024']), 'header kid: expected one of the key set\'s kids, got "es-2024"'];
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
        self::assertRefused(static fn () => self::verify($token()), $reason);
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
        self::assertRefused(static fn () => self::verify($token, leewaySeconds: $leeway), $refusal, true);
    }

    public function testTheDefaultLeewayIs30Seconds(): void
    {
        $keys = jwt_keys_from_jwks(self::jwks());
        self::assertSame('alice', jwt_verify(self::token('es-2026', ['exp' => self::NOW - 29, 'nbf' => self::NOW + 30]), $keys, self::ISSUER, self::AUDIENCE, self::NOW)['sub']);
        self::assertRefused(static fn () => jwt_verify(self::token('es-2026', ['exp' => self::NOW - 30]), $keys, self::ISSUER, self::AUDIENCE, self::NOW), '(leeway 30 s)');
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
        self::assertRefused(static fn () => jwt_verify(self::token('es-2026', $claims + ['iss' => $issuer, 'aud' => $audience]), $keys, $issuer, $audience, self::NOW), $refusal, true);
    }

    public function testTheLeewayIsTheCallers(): void
    {
        $token = self::token('es-2026', ['exp' => self::NOW - 5]);
        self::assertSame('alice', self::verify($token, leewaySeconds: 10)['sub']);
        self::assertRefused(static fn () => self::verify($token, leewaySeconds: 0), 'exp: expired at 1767225595, it is 1767225600 (leeway 0 s)', true);
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
        yield 'a key without alg' => [static fn (): array => ['keys' => [$es(['kid' => 'a'])]], 'key "a": expected alg to be one of ' . self::DEFAULT_ALLOWED . ', got none'];
        yield 'HS256, not in the allow-list' => [static fn (): array => ['keys' => [$hs()]], 'key "a": expected alg to be one of ' . self::DEFAULT_ALLOWED . ', got "HS256"'];
        yield 'a private EC key' => [static fn (): array => ['keys' => [$es(['d' => Base64Url::encode(random_bytes(32)), 'kid' => 'a', 'alg' => 'ES256'])]], 'key "a": expected a public key, got a private or secret one'];
        yield 'a private Ed25519 key' => [static fn (): array => ['keys' => [Jwk::publicOf(self::$private['ed-2026']) + ['d' => Base64Url::encode(substr((string) self::$private['ed-2026'], 0, 32)), 'kid' => 'a', 'alg' => 'EdDSA']]], 'key "a": expected a public key, got a private or secret one'];
        yield 'an EC key with an empty private member' => [static fn (): array => ['keys' => [$es(['d' => '', 'kid' => 'a', 'alg' => 'ES256'])]], 'key "a": expected a public key, got a private or secret one'];
        yield 'a private member d of null' => [static fn (): array => ['keys' => [$es(['d' => null, 'kid' => 'a', 'alg' => 'ES256'])]], 'key "a": expected a public key, got a private or secret one'];
        yield 'a secret member k of null' => [static fn (): array => ['keys' => [$es(['k' => null, 'kid' => 'a', 'alg' => 'ES256'])]], 'key "a": expected a public key, got a private or secret one'];
        yield 'a private RSA key' => [static fn (): array => ['keys' => [$rs(['d' => Base64Url::encode(random_bytes(256)), 'kid' => 'a', 'alg' => 'RS256'])]], 'key "a": expected a public key, got a private or secret one'];
        yield 'a P-256 key labelled ES384' => [static fn (): array => ['keys' => [$es(['kid' => 'a', 'alg' => 'ES384'])]], 'key "a": expected alg to be one of ' . self::DEFAULT_ALLOWED . ', got "ES384"'];
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
        self::assertRefused(static fn () => jwt_verify(self::token(), $keys, self::ISSUER, self::AUDIENCE, self::NOW), 'header kid: expected one of the key set\'s kids, got "es-2026"', true);
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
        $claims = ['iss' => self::ISSUER, 'aud' => self::AUDIENCE, 'sub' => 'alice', 'exp' => self::NOW + 300, 'iat' => self::NOW];
        self::assertSame('alice', jwt_verify(CompactJws::signClaims($signer, $claims, ['typ' => 'JWT', 'kid' => '5']), $keys, self::ISSUER, self::AUDIENCE, self::NOW)['sub']);
        self::assertRefused(static fn () => jwt_verify(CompactJws::signClaims($signer, $claims, ['typ' => 'JWT', 'kid' => 5]), $keys, self::ISSUER, self::AUDIENCE, self::NOW), 'header kid: expected one of the key set\'s kids, got 5', true);
    }

    /**
     * Signed payloads that are not a JSON object of claims, each refused with its reason. The signature is
     * valid: only the holder of the issuer's key could send these.
     *
     * @return iterable<string, array{string, string}> payload => the refusal
     */
    public static function payloads(): iterable
    {
        yield 'not JSON' => ['iss=https://issuer.example', 'Syntax error'];
        yield 'a list' => ['["https://issuer.example"]', 'payload: expected a JSON object of claims'];
        yield 'a string' => ['"https://issuer.example"', 'payload: expected a JSON object of claims'];
        yield 'a number' => ['1', 'payload: expected a JSON object of claims'];
        yield 'null' => ['null', 'payload: expected a JSON object of claims'];
        // [] and {} decode alike: an empty object, which has no iss.
        yield 'an empty list' => ['[]', 'iss: expected "https://issuer.example", got null'];
        yield 'an empty object' => ['{}', 'iss: expected "https://issuer.example", got null'];
        yield 'nested 65 deep' => [self::claimsNested(64), 'Maximum stack depth exceeded'];
        // An integer beyond PHP's is kept as its digits, never rounded to a float.
        yield 'exp beyond 64 bits' => ['{"iss":"https://issuer.example","aud":"https://api.example","exp":99999999999999999999}', 'exp: expected a NumericDate (whole seconds), got "99999999999999999999"'];
        yield 'nbf null' => ['{"iss":"https://issuer.example","aud":"https://api.example","exp":1767225900,"nbf":null}', 'nbf: expected a NumericDate (whole seconds), got null'];
    }

    /** @dataProvider payloads */
    #[DataProvider('payloads')]
    public function testASignedPayloadThatIsNotAValidClaimsSetIsRefused(string $payload, string $refusal): void
    {
        $token = CompactJws::sign(Key::forSigning(Algorithms::named('ES256'), self::$private['es-2026']), $payload, ['typ' => 'JWT', 'kid' => 'es-2026']);
        self::assertRefused(static fn () => self::verify($token), $refusal, true);
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
        return (string) json_encode(['iss' => self::ISSUER, 'aud' => self::AUDIENCE, 'sub' => 'alice', 'exp' => self::NOW + 300, 'iat' => self::NOW, 'n' => $value]);
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
        self::assertSame(['EdDSA'], $keys['ed']['algs'], 'a list: the names the caller allows, of the two');
        $this->expectException(InvalidArgumentException::class);
        $this->expectExceptionMessage('key "es": expected alg to be one of EdDSA, got "ES256"');
        jwt_keys_from_jwks(['keys' => [Jwk::publicOf(self::$private['es-2026']) + ['kid' => 'es', 'alg' => 'ES256']]], ['EdDSA']);
    }

    /** @return iterable<string, array{string, string}> kid (a key labelled Ed25519 or EdDSA) => the header alg of the token */
    public static function ed25519Names(): iterable
    {
        foreach (['ed-2026', 'ed-2025'] as $kid) {
            foreach (['Ed25519', 'EdDSA'] as $alg) {
                yield "key $kid, header $alg" => [$kid, $alg];
            }
        }
    }

    /**
     * RFC 9864: "Ed25519" names the algorithm, "EdDSA" is its deprecated name; an Ed25519 key verifies a
     * token under either name, whichever its JWK says.
     *
     * @dataProvider ed25519Names
     */
    #[DataProvider('ed25519Names')]
    public function testAnEd25519KeyVerifiesTokensNamedEd25519OrEdDsa(string $kid, string $alg): void
    {
        $token = self::signed($alg, self::$private[$kid], (string) json_encode(['iss' => self::ISSUER, 'aud' => self::AUDIENCE, 'sub' => 'alice', 'exp' => self::NOW + 300, 'iat' => self::NOW]), ['typ' => 'JWT', 'kid' => $kid]);
        self::assertStringContainsString('"alg":"' . $alg . '"', Base64Url::decode(explode('.', $token)[0]));
        self::assertSame('alice', self::verify($token)['sub']);
    }

    public function testAnAllowListWithoutEdDsaRefusesTheOldName(): void
    {
        $jwks = ['keys' => [Jwk::publicOf(self::$private['ed-2026']) + ['kid' => 'ed', 'alg' => 'Ed25519']]];
        $keys = jwt_keys_from_jwks($jwks, ['Ed25519']);
        $claims = (string) json_encode(['iss' => self::ISSUER, 'aud' => self::AUDIENCE, 'sub' => 'alice', 'exp' => self::NOW + 300, 'iat' => self::NOW]);
        self::assertSame('alice', jwt_verify(self::signed('Ed25519', self::$private['ed-2026'], $claims, ['typ' => 'JWT', 'kid' => 'ed']), $keys, self::ISSUER, self::AUDIENCE, self::NOW)['sub']);
        self::assertRefused(static fn () => jwt_verify(self::signed('EdDSA', self::$private['ed-2026'], $claims, ['typ' => 'JWT', 'kid' => 'ed']), $keys, self::ISSUER, self::AUDIENCE, self::NOW), 'header alg: expected ["Ed25519"] for key "ed", got "EdDSA"', true);
    }

    /** @return iterable<string, array{callable(): array<string, mixed>, string}> a JWK whose alg its kty or crv does not allow => the refusal */
    public static function mismatchedKeys(): iterable
    {
        $es = static fn (): array => Jwk::publicOf(self::$private['es-2026']);
        $ed = static fn (): array => Jwk::publicOf(self::$private['ed-2026']);
        yield 'a P-256 key labelled Ed25519' => [static fn (): array => $es() + ['alg' => 'Ed25519'], 'key "a": Ed25519: expected kty "OKP" with crv "Ed25519", got kty "EC"'];
        yield 'a P-256 key labelled EdDSA' => [static fn (): array => $es() + ['alg' => 'EdDSA'], 'key "a": EdDSA: expected kty "OKP" with crv "Ed25519", got kty "EC"'];
        yield 'an Ed448 key labelled EdDSA' => [static fn (): array => ['crv' => 'Ed448'] + $ed() + ['alg' => 'EdDSA'], 'key "a": EdDSA: expected kty "OKP" with crv "Ed25519", got kty "OKP"'];
        yield 'an Ed25519 key labelled ES256' => [static fn (): array => $ed() + ['alg' => 'ES256'], 'key "a": ES256: expected kty "EC" with crv "P-256", got kty "OKP"'];
        yield 'a P-384 curve named on a P-256 key' => [static fn (): array => ['crv' => 'P-384'] + $es() + ['alg' => 'ES256'], 'key "a": ES256: expected kty "EC" with crv "P-256", got kty "EC"'];
        yield 'an EC key labelled PS256' => [static fn (): array => $es() + ['alg' => 'PS256'], 'key "a": PS256: expected kty "RSA", got kty "EC"'];
        yield 'an x of 31 bytes' => [static fn (): array => ['x' => Base64Url::encode(random_bytes(31))] + $es() + ['alg' => 'ES256'], 'key "a": expected the member x of 32 bytes, got 31 bytes'];
        yield 'no y' => [static fn (): array => array_diff_key($es(), ['y' => true]) + ['alg' => 'ES256'], 'key "a": expected the member y of 32 bytes, got 0 bytes'];
        yield 'an x in base64 with padding' => [static fn (): array => ['x' => Base64Url::encode(random_bytes(31)) . '='] + $ed() + ['alg' => 'Ed25519'], 'key "a": x: expected base64url without padding'];
        yield 'a point off the curve' => [static fn (): array => ['x' => Base64Url::encode(str_repeat("\1", 32)), 'y' => Base64Url::encode(str_repeat("\1", 32))] + $es() + ['alg' => 'ES256'], 'key "a": OpenSSL refused the key'];
        yield 'key_ops without verify' => [static fn (): array => $es() + ['alg' => 'ES256', 'key_ops' => ['encrypt']], 'key "a": expected a key published for signatures (use "sig", key_ops with "verify")'];
        yield 'key_ops not a list' => [static fn (): array => $es() + ['alg' => 'ES256', 'key_ops' => 'verify'], 'key "a": expected a key published for signatures'];
        yield 'an RSA modulus of 2047 bits' => [static fn (): array => ['n' => Base64Url::encode("\x7f" . random_bytes(255))] + Jwk::publicOf(self::$private['rs-2026']) + ['alg' => 'RS256'], 'key "a": RS256: expected an RSA key of at least 2048 bits, got 2047'];
        yield 'an RSA modulus of one zero byte' => [static fn (): array => ['n' => Base64Url::encode("\0")] + Jwk::publicOf(self::$private['rs-2026']) + ['alg' => 'RS256'], 'key "a": RS256: expected an RSA key of at least 2048 bits, got 0'];
        yield 'an empty RSA exponent' => [static fn (): array => ['e' => ''] + Jwk::publicOf(self::$private['rs-2026']) + ['alg' => 'RS256'], 'key "a": expected the member e of one or more bytes, got 0 bytes'];
        yield 'an x of 33 bytes for Ed25519' => [static fn (): array => ['x' => Base64Url::encode(random_bytes(33))] + $ed() + ['alg' => 'Ed25519'], 'key "a": expected the member x of 32 bytes, got 33 bytes'];
        yield 'kty EC on an Ed25519 curve' => [static fn (): array => ['kty' => 'EC'] + $ed() + ['alg' => 'Ed25519'], 'key "a": Ed25519: expected kty "OKP" with crv "Ed25519", got kty "EC"'];
        yield 'kty true on an Ed25519 curve' => [static fn (): array => ['kty' => true] + $ed() + ['alg' => 'Ed25519'], 'key "a": Ed25519: expected kty "OKP" with crv "Ed25519", got kty true'];
        yield 'crv true on an OKP key' => [static fn (): array => ['crv' => true] + $ed() + ['alg' => 'Ed25519'], 'key "a": Ed25519: expected kty "OKP" with crv "Ed25519", got kty "OKP"'];
        yield 'kty OKP on P-256' => [static fn (): array => ['kty' => 'OKP'] + $es() + ['alg' => 'ES256'], 'key "a": ES256: expected kty "EC" with crv "P-256", got kty "OKP"'];
        yield 'kty true on P-256' => [static fn (): array => ['kty' => true] + $es() + ['alg' => 'ES256'], 'key "a": ES256: expected kty "EC" with crv "P-256", got kty true'];
        yield 'crv true on an EC key' => [static fn (): array => ['crv' => true] + $es() + ['alg' => 'ES256'], 'key "a": ES256: expected kty "EC" with crv "P-256", got kty "EC"'];
        yield 'kty true on an RSA key' => [static fn (): array => ['kty' => true] + Jwk::publicOf(self::$private['rs-2026']) + ['alg' => 'RS256'], 'key "a": RS256: expected kty "RSA", got kty true'];
        yield 'use true' => [static fn (): array => $es() + ['alg' => 'ES256', 'use' => true], 'key "a": expected a key published for signatures'];
        yield 'key_ops empty' => [static fn (): array => $es() + ['alg' => 'ES256', 'key_ops' => []], 'key "a": expected a key published for signatures'];
        yield 'key_ops [true]' => [static fn (): array => $es() + ['alg' => 'ES256', 'key_ops' => [true]], 'key "a": expected a key published for signatures'];
        yield 'an RSA modulus of 2048 bits after a zero byte' => [static fn (): array => ['n' => Base64Url::encode("\0\x01" . random_bytes(255))] + Jwk::publicOf(self::$private['rs-2026']) + ['alg' => 'RS256'], 'key "a": RS256: expected an RSA key of at least 2048 bits, got 2041'];
    }

    /**
     * @dataProvider mismatchedKeys
     * @param callable(): array<string, mixed> $jwk
     */
    #[DataProvider('mismatchedKeys')]
    public function testAKeyVerifiesOnlyWhatItsKtyAndCrvAllow(callable $jwk, string $reason): void
    {
        $this->expectException(InvalidArgumentException::class);
        $this->expectExceptionMessage($reason);
        jwt_keys_from_jwks(['keys' => [$jwk() + ['kid' => 'a']]]);
    }

    public function testAnAlgorithmThisVerifierDoesNotImplementIsRefusedEvenWhenAllowed(): void
    {
        $this->expectException(InvalidArgumentException::class);
        $this->expectExceptionMessage('key "a": ES384: this verifier implements ES256, Ed25519 (EdDSA), PS256 and RS256 only');
        jwt_keys_from_jwks(['keys' => [Jwk::publicOf(self::$private['es-2026']) + ['kid' => 'a', 'alg' => 'ES384']]], ['ES384']);
    }

    /**
     * The lifetime is capped from iat: exp - iat at most $maxLifetimeSeconds (default 3600), iat required
     * and not after now + leeway.
     *
     * @return iterable<string, array{array<string, mixed>, int|null, string|null}> claims, max lifetime => the refusal, or null when valid
     */
    public static function lifetimes(): iterable
    {
        yield 'a lifetime of exactly the default 3600 s' => [['iat' => self::NOW - 3000, 'exp' => self::NOW + 600], null, null];
        yield 'one second longer than 3600 s' => [['iat' => self::NOW - 3001, 'exp' => self::NOW + 600], null, 'exp: a lifetime of 3601 s from iat, longer than 3600 s'];
        yield 'a year ahead, issued now' => [['iat' => self::NOW, 'exp' => self::NOW + 31_536_000], null, 'exp: a lifetime of 31536000 s from iat, longer than 3600 s'];
        yield 'the caller\'s cap of 300 s, met' => [['iat' => self::NOW - 100, 'exp' => self::NOW + 200], 300, null];
        yield 'the caller\'s cap of 300 s, exceeded by one second' => [['iat' => self::NOW - 101, 'exp' => self::NOW + 200], 300, 'exp: a lifetime of 301 s from iat, longer than 300 s'];
        yield 'no iat' => [['iat' => null], null, 'iat: expected a NumericDate (whole seconds), got null'];
        yield 'iat as a string' => [['iat' => '1767225600'], null, 'iat: expected a NumericDate (whole seconds), got "1767225600"'];
        yield 'iat as a float' => [['iat' => 1767225600.5], null, 'iat: expected a NumericDate (whole seconds), got 1767225600.5'];
        yield 'iat at now + leeway' => [['iat' => self::NOW + 30], null, null];
        yield 'iat one second after now + leeway' => [['iat' => self::NOW + 31], null, 'iat: issued at 1767225631, after now 1767225600 (leeway 30 s)'];
    }

    /**
     * @dataProvider lifetimes
     * @param array<string, mixed> $claims
     */
    #[DataProvider('lifetimes')]
    public function testTheLifetimeIsCappedFromIat(array $claims, ?int $maxLifetime, ?string $refusal): void
    {
        $token = self::token('es-2026', $claims);
        $verify = static fn () => $maxLifetime === null ? self::verify($token) : self::verify($token, maxLifetimeSeconds: $maxLifetime);
        if ($refusal === null) {
            self::assertSame('alice', $verify()['sub']);
            return;
        }
        self::assertRefused($verify, $refusal, true);
    }

    /** @return iterable<string, array{callable(): string, string}> a token => the reason kept for the log */
    public static function refusedOtherwise(): iterable
    {
        yield 'crit' => [static fn (): string => self::token('es-2026', [], ['crit' => ['exp'], 'exp' => 1]), 'header crit: this verifier understands no extension'];
        yield 'an RS256 token under the kid of the PS256 key' => [static fn (): string => self::token('rs-2026', [], ['kid' => 'ps-2026']), 'header alg: expected ["PS256"] for key "ps-2026", got "RS256"'];
        yield 'an ES256 signature in DER, not R ‖ S' => [static fn (): string => self::derSigned(), 'ES256: expected a signature that verifies'];
        yield 'an Ed25519 signature one byte longer' => [static fn (): string => self::prefixedSignature(self::token('ed-2026'), "\0"), 'Ed25519: expected a signature that verifies'];
        yield 'no signature' => [static fn (): string => substr(self::token(), 0, (int) strrpos(self::token(), '.') + 1), 'ES256: expected a signature that verifies'];
        yield 'a signature of the one byte "0"' => [static fn (): string => substr(self::token(), 0, (int) strrpos(self::token(), '.') + 1) . 'MA', 'ES256: expected a signature that verifies'];
        yield 'an ES256 signature of zeros' => [static fn (): string => substr(self::token(), 0, (int) strrpos(self::token(), '.') + 1) . Base64Url::encode(str_repeat("\0", 64)), 'ES256: expected a signature that verifies'];
        yield 'crit null' => [static fn (): string => CompactJws::sign(Key::forSigning(Algorithms::named('ES256'), self::$private['es-2026']), (string) json_encode(['iss' => self::ISSUER, 'aud' => self::AUDIENCE, 'exp' => self::NOW + 300, 'iat' => self::NOW]), ['typ' => 'JWT', 'kid' => 'es-2026', 'crit' => null]), 'header crit: this verifier understands no extension'];
        yield 'alg true' => [static fn (): string => self::rawEd25519(['alg' => true, 'typ' => 'JWT', 'kid' => 'ed-2026']), 'header alg: expected ["Ed25519","EdDSA"] for key "ed-2026", got true'];
        yield 'an Ed25519 signature one byte short' => [static fn (): string => substr(self::token('ed-2026'), 0, -2), 'Ed25519: expected a signature that verifies'];
        yield 'an RSA signature with a zero byte in front' => [static fn (): string => self::prefixedSignature(self::token('rs-2026'), "\0"), 'RS256: expected a signature that verifies'];
        yield 'a signature in base64 with padding' => [static fn (): string => self::token() . '=', 'signature: expected base64url without padding'];
        yield 'a signature in base64 with + and /' => [static fn (): string => strtr(self::token(), '-_', '+/') . '+/', 'signature: expected base64url without padding'];
        yield 'a header in base64 with padding' => [static fn (): string => Base64Url::encode('{"alg":"ES256","kid":"es-2026"}') . '=.e30.c2ln', 'header: expected base64url without padding'];
        yield 'a header whose last character is not canonical' => [static fn (): string => self::uncanonical(), 'header: expected base64url without padding'];
    }

    /**
     * @dataProvider refusedOtherwise
     * @param callable(): string $token
     */
    #[DataProvider('refusedOtherwise')]
    public function testOtherTokensAreRefusedWithTheReasonKept(callable $token, string $reason): void
    {
        self::assertRefused(static fn () => self::verify($token()), $reason, true);
    }

    /**
     * R and S of every first byte that DER encodes differently: 0x00 (dropped, as DER has no leading
     * zero), 0x7f (as it is) and 0x80 (a zero byte in front, or it would be negative).
     */
    public function testEs256SignaturesVerifyWhateverTheFirstBytesOfRAndS(): void
    {
        $keys = jwt_keys_from_jwks(self::jwks());
        $seen = [];
        for ($i = 0; $i < 5000 && count($seen) < 3; $i++) {
            $token = self::token('es-2026', ['jti' => (string) $i]);
            $signature = Base64Url::decode(explode('.', $token)[2]);
            $firsts = array_intersect([$signature[0], $signature[32]], ["\x00", "\x7f", "\x80"]);
            if ($firsts !== []) {
                self::assertSame((string) $i, jwt_verify($token, $keys, self::ISSUER, self::AUDIENCE, self::NOW)['jti']);
                foreach ($firsts as $first) {
                    $seen[bin2hex($first)] = true;
                }
            }
        }
        ksort($seen);
        self::assertSame(['00', '7f', '80'], array_map('strval', array_keys($seen)));
    }

    public function testAnRsaKeyWithALongExponentLoads(): void
    {
        // An exponent of 128 bytes makes a DER INTEGER of exactly 128 bytes: the first length in the long form.
        $jwk = ['e' => Base64Url::encode("\x01" . str_repeat("\0", 126) . "\x01")] + Jwk::publicOf(self::$private['rs-2026']) + ['kid' => 'e', 'alg' => 'RS256'];
        $keys = jwt_keys_from_jwks(['keys' => [$jwk]]);
        self::assertSame(['e'], array_keys($keys));
        self::assertSame(128, strlen(openssl_pkey_get_details($keys['e']['key'])['rsa']['e']));
    }

    public function testAnRsaSignatureWithoutItsLeadingZeroByteIsRefused(): void
    {
        // An RSA signature is exactly as long as the modulus (RFC 8017 section 8.2.2): one whose leading zero byte was dropped is refused.
        for ($i = 0; $i < 5000; $i++) {
            $token = self::token('rs-2026', ['jti' => (string) $i]);
            $signature = Base64Url::decode(explode('.', $token)[2]);
            if ($signature[0] === "\0") {
                break;
            }
        }
        self::assertSame("\0", $signature[0], 'a signature with a leading zero byte, found');
        self::assertSame((string) $i, self::verify($token)['jti']);
        $parts = explode('.', $token);
        $parts[2] = Base64Url::encode(substr($signature, 1));
        self::assertRefused(static fn () => self::verify(implode('.', $parts)), 'RS256: expected a signature that verifies', true);
    }

    public function testAKeyOpsWithVerifyIsTaken(): void
    {
        $keys = jwt_keys_from_jwks(['keys' => [Jwk::publicOf(self::$private['es-2026']) + ['kid' => 'es-2026', 'alg' => 'ES256', 'key_ops' => ['verify']]]]);
        self::assertSame('alice', jwt_verify(self::token(), $keys, self::ISSUER, self::AUDIENCE, self::NOW)['sub']);
    }

    public function testTheCallersMessageNamesNoKidIssuerOrAudience(): void
    {
        $tokens = [self::token('es-2026', [], ['kid' => 'nope']), self::token('es-2026', ['iss' => 'x']), self::token('es-2026', ['aud' => 'x'])];
        foreach ($tokens as $token) {
            try {
                self::verify($token);
                self::fail('expected the token to be refused');
            } catch (RuntimeException $e) {
                self::assertSame(self::REFUSED, $e->getMessage());
                foreach ([...array_keys(self::KIDS), self::ISSUER, self::AUDIENCE] as $secretish) {
                    self::assertStringNotContainsString($secretish, $e->getMessage());
                }
            }
        }
    }

    /** @param array<string, mixed> $header exactly this header, signed by the Ed25519 key ed-2026 */
    private static function rawEd25519(array $header): string
    {
        $input = Base64Url::encode((string) json_encode($header)) . '.' . Base64Url::encode((string) json_encode(['iss' => self::ISSUER, 'aud' => self::AUDIENCE, 'exp' => self::NOW + 300, 'iat' => self::NOW]));
        return $input . '.' . Base64Url::encode(sodium_crypto_sign_detached($input, (string) self::$private['ed-2026']));
    }

    /** An ES256 token whose signature is the DER openssl_sign() makes, not the R ‖ S a JWS carries. */
    private static function derSigned(): string
    {
        $token = self::token();
        $input = substr($token, 0, (int) strrpos($token, '.'));
        openssl_sign($input, $der, self::$private['es-2026'], OPENSSL_ALGO_SHA256);
        return $input . '.' . Base64Url::encode($der);
    }

    private static function prefixedSignature(string $token, string $prefix): string
    {
        $parts = explode('.', $token);
        $parts[2] = Base64Url::encode($prefix . Base64Url::decode($parts[2]));
        return implode('.', $parts);
    }

    /** A token whose header's base64url has a last character with bits set that decode drops ("...Q" as "...R"). */
    private static function uncanonical(): string
    {
        $header = Base64Url::encode('{"alg":"ES256","kid":"es-2026","typ":"JWT"}');
        self::assertSame(2, strlen($header) % 4, 'a header whose last character carries 4 bits');
        $last = strpos('ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_', $header[-1]);
        $header[-1] = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_'[$last + 1];
        return $header . '.e30.c2ln';
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
