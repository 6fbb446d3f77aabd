<?php

declare(strict_types=1);

namespace PhpCryptoBench\Tests\Jws;

use DateTimeImmutable;
use PhpCryptoBench\Exception\AlgorithmNotAllowed;
use PhpCryptoBench\Exception\ClaimRejected;
use PhpCryptoBench\Exception\MalformedToken;
use PhpCryptoBench\Exception\SignatureRejected;
use PhpCryptoBench\Exception\WeakKey;
use PhpCryptoBench\Harness\WallClock;
use PhpCryptoBench\Jws\Algorithms;
use PhpCryptoBench\Jws\Base64Url;
use PhpCryptoBench\Jws\CompactJws;
use PhpCryptoBench\Jws\Jwk;
use PhpCryptoBench\Jws\Key;
use PhpCryptoBench\Jws\KnownAnswers;
use PhpCryptoBench\Jws\WycheproofSignatureSuite;
use PhpCryptoBench\Tests\Support\HashEqualsSpy;
use PHPUnit\Framework\TestCase;
use PHPUnit\Framework\Attributes\DataProvider;

final class CompactJwsTest extends TestCase
{
    private static function es256(): array
    {
        $private = openssl_pkey_new(['private_key_type' => OPENSSL_KEYTYPE_EC, 'curve_name' => 'prime256v1']);
        $algorithm = Algorithms::named('ES256');
        return [Key::forSigning($algorithm, $private), Key::forVerification($algorithm, Jwk::import(Jwk::publicOf($private)))];
    }

    private static function clockAt(int $timestamp): WallClock
    {
        return new class ($timestamp) implements WallClock {
            public function __construct(private readonly int $timestamp)
            {
            }

            public function now(): DateTimeImmutable
            {
                return (new DateTimeImmutable())->setTimestamp($this->timestamp);
            }

            public function timestamp(): int
            {
                return $this->timestamp;
            }
        };
    }

    public function testRfc7520Rs256IsReproducedByteForByte(): void
    {
        $key = Key::forSigning(Algorithms::named('RS256'), Jwk::import(KnownAnswers::RFC7520_RSA));
        self::assertSame(KnownAnswers::RFC7520_RS256, CompactJws::sign($key, KnownAnswers::RFC7520_PAYLOAD, ['kid' => 'bilbo.baggins@hobbiton.example']));
    }

    public function testRfc8037Ed25519IsReproducedByteForByte(): void
    {
        $key = Key::forSigning(Algorithms::named('EdDSA'), Jwk::import(KnownAnswers::RFC8037_KEY));
        self::assertSame(KnownAnswers::RFC8037_TOKEN, CompactJws::sign($key, 'Example of Ed25519 signing'));
    }

    /** @return iterable<string, array{string, array<string, string>, string}> */
    public static function publishedTokens(): iterable
    {
        yield 'RFC 7515 A.1 HS256' => ['HS256', KnownAnswers::RFC7515_HS256_KEY, KnownAnswers::RFC7515_HS256];
        yield 'RFC 7515 A.2 RS256' => ['RS256', KnownAnswers::RFC7515_RS256_KEY, KnownAnswers::RFC7515_RS256];
        yield 'RFC 7515 A.3 ES256' => ['ES256', KnownAnswers::RFC7515_ES256_KEY, KnownAnswers::RFC7515_ES256];
        yield 'RFC 7520 4.2 PS384' => ['PS384', ['kty' => 'RSA', 'n' => KnownAnswers::RFC7520_RSA['n'], 'e' => 'AQAB'], KnownAnswers::RFC7520_PS384];
        yield 'RFC 7520 4.3 ES512' => ['ES512', KnownAnswers::RFC7520_ES512_KEY, KnownAnswers::RFC7520_ES512];
        yield 'RFC 8037 A.5 EdDSA' => ['EdDSA', ['kty' => 'OKP', 'crv' => 'Ed25519', 'x' => KnownAnswers::RFC8037_KEY['x']], KnownAnswers::RFC8037_TOKEN];
    }

    /** @dataProvider publishedTokens */
    #[DataProvider('publishedTokens')]
    public function testPublishedTokensVerifyAndFailWhenTouched(string $alg, array $jwk, string $token): void
    {
        $key = Key::forVerification(Algorithms::named($alg), Jwk::import($jwk));
        self::assertNotSame('', CompactJws::verify($token, $key)->payload);
        [$header, $payload, $signature] = explode('.', $token);
        $this->expectException(SignatureRejected::class);
        CompactJws::verify($header . '.' . Base64Url::encode(Base64Url::decode($payload) . ' ') . '.' . $signature, $key);
    }

    public function testRfc7515AppendixA5UnsecuredJwsIsRefused(): void
    {
        [, $verifier] = self::es256();
        $this->expectException(AlgorithmNotAllowed::class);
        $this->expectExceptionMessage('header alg: expected a signature algorithm, got "none"');
        CompactJws::verify('eyJhbGciOiJub25lIn0.eyJpc3MiOiJqb2UiLA0KICJleHAiOjEzMDA4MTkzODAsDQogImh0dHA6Ly9leGFtcGxlLmNvbS9pc19yb290Ijp0cnVlfQ.', $verifier);
    }

    public function testWycheproofVectorsGiveTheExpectedResultThroughTheSignatureLayer(): void
    {
        $reports = (new WycheproofSignatureSuite(REPOSITORY . '/vectors/wycheproof'))->runAll();
        self::assertSame(array_keys(WycheproofSignatureSuite::FILES), array_map(static fn ($r) => $r->source, $reports), 'every file, in order');
        self::assertSame(['ES256', 'ES384', 'ES512', 'EdDSA', 'RS256', 'RS512'], array_map(static fn ($r) => strstr($r->algorithm, ' ', true), $reports));
        $counts = array_combine(array_map(static fn ($r) => $r->source, $reports), array_map(static fn ($r) => [$r->passed, $r->skippedCount()], $reports));
        self::assertSame([262, 0], $counts['ecdsa_secp256r1_sha256_p1363_test.json']);
        self::assertSame([318, 0], $counts['ecdsa_secp521r1_sha512_p1363_test.json']);
        self::assertSame([151, 0], $counts['ed25519_test.json']);
        self::assertSame([258, 1], $counts['rsa_signature_2048_sha256_test.json']);
    }

    /** @return iterable<string, array{class-string, string, string}> */
    public static function refusals(): iterable
    {
        yield 'alg none' => [AlgorithmNotAllowed::class, '{"alg":"none"}', 'header alg: expected a signature algorithm, got "none"'];
        yield 'another algorithm than the key\'s' => [AlgorithmNotAllowed::class, '{"alg":"ES384"}', 'header alg: expected "ES256", the algorithm bound to this key, got "ES384"'];
        yield 'the key\'s algorithm in lower case' => [AlgorithmNotAllowed::class, '{"alg":"es256"}', 'header alg: expected "ES256", the algorithm bound to this key, got "es256"'];
        yield 'no alg' => [AlgorithmNotAllowed::class, '{"typ":"JWT"}', 'header alg: expected a string, got no alg member'];
        yield 'alg null' => [AlgorithmNotAllowed::class, '{"alg":null}', 'header alg: expected a string, got null'];
        yield 'alg an integer' => [AlgorithmNotAllowed::class, '{"alg":256}', 'header alg: expected a string, got int'];
        yield 'alg a list' => [AlgorithmNotAllowed::class, '{"alg":["ES256"]}', 'header alg: expected a string, got array'];
        yield 'a critical extension' => [AlgorithmNotAllowed::class, '{"alg":"ES256","crit":["exp"]}', 'header crit: expected no critical extensions this verifier does not understand, got ["exp"]'];
        // RFC 7515 section 4.1.11: crit, when present, is a non-empty list; null and [] are malformed, not absent.
        yield 'crit null' => [AlgorithmNotAllowed::class, '{"alg":"ES256","crit":null}', 'header crit: expected no critical extensions this verifier does not understand, got null'];
        yield 'crit an empty list' => [AlgorithmNotAllowed::class, '{"alg":"ES256","crit":[]}', 'header crit: expected no critical extensions this verifier does not understand, got []'];
        yield 'a header that is a string' => [MalformedToken::class, '"ES256"', 'header: expected a JSON object, got string'];
        yield 'a header that is not JSON' => [MalformedToken::class, '{alg:ES256}', 'header: expected a JSON object, got text that is not JSON'];
        yield 'a header that is a list with white space before it' => [MalformedToken::class, " \t\r\n[1]", 'header: expected a JSON object, got array'];
    }

    /** @dataProvider refusals */
    #[DataProvider('refusals')]
    public function testHeadersThatMustBeRefused(string $exception, string $header, string $message): void
    {
        [$signer, $verifier] = self::es256();
        [, $payload, $signature] = explode('.', CompactJws::sign($signer, 'x'));
        $this->expectException($exception);
        $this->expectExceptionMessage($message);
        CompactJws::verify(Base64Url::encode($header) . ".$payload.$signature", $verifier);
    }

    /** A header decoded before is taken from the cache, and still checked against the key of each call. */
    public function testARefusedHeaderIsRefusedAgainWhenItsTextWasSeenBefore(): void
    {
        foreach (self::refusals() as $name => [$exception, $header, $message]) {
            [$signer, $verifier] = self::es256();
            [, $payload, $signature] = explode('.', CompactJws::sign($signer, 'x'));
            $token = Base64Url::encode($header) . ".$payload.$signature";
            foreach (['first', 'second'] as $time) {
                try {
                    CompactJws::verify($token, $verifier);
                    self::fail("$name: accepted the $time time");
                } catch (AlgorithmNotAllowed | MalformedToken $e) {
                    self::assertInstanceOf($exception, $e, "$name, the $time time");
                    self::assertStringContainsString($message, $e->getMessage(), "$name, the $time time");
                }
            }
        }
    }

    public function testAHeaderVerifiedWithOneKeyIsRefusedWithAKeyOfAnotherAlgorithm(): void
    {
        [$signer, $verifier] = self::es256();
        $token = CompactJws::sign($signer, 'x');
        self::assertSame(['alg' => 'ES256'], CompactJws::verify($token, $verifier)->header);
        $other = Key::forVerification(Algorithms::named('ES384'), Jwk::import(Jwk::publicOf(openssl_pkey_new(['private_key_type' => OPENSSL_KEYTYPE_EC, 'curve_name' => 'secp384r1']))));
        $this->expectException(AlgorithmNotAllowed::class);
        $this->expectExceptionMessage('header alg: expected "ES384", the algorithm bound to this key, got "ES256"');
        CompactJws::verify($token, $other);
    }

    /** The cache is keyed by the exact text: another encoding of a cached header is still refused. */
    public function testANonCanonicalEncodingOfACachedHeaderIsRefused(): void
    {
        $signer = Key::forSigning(Algorithms::named('HS256'), str_repeat('k', 32));
        $token = CompactJws::sign($signer, 'x', ['typ' => 'J']);
        [$header, $payload] = explode('.', $token);
        CompactJws::verify($token, $signer);
        self::assertSame(2, strlen($header) % 4, 'a header whose last character has 4 unused bits');
        $other = substr($header, 0, -1) . chr(ord($header[strlen($header) - 1]) + 1);
        self::assertSame(Base64Url::decode($header), (string) base64_decode(strtr($other, '-_', '+/')), 'the same bytes, another text');
        $input = "$other.$payload";
        $this->expectException(MalformedToken::class);
        CompactJws::verify($input . '.' . Base64Url::encode(hash_hmac('sha256', $input, str_repeat('k', 32), true)), $signer);
    }

    /** Distinct headers, more than the cache keeps: each token's own header, and the cache bounded. */
    public function testTheHeaderCacheKeepsAtMostSixteenAndNeverAnotherTokensHeader(): void
    {
        $signer = Key::forSigning(Algorithms::named('HS256'), str_repeat('k', 32));
        for ($i = 0; $i < 40; $i++) {
            $token = CompactJws::sign($signer, 'x', ['kid' => "key-$i"]);
            self::assertSame(['alg' => 'HS256', 'kid' => "key-$i"], CompactJws::verify($token, $signer)->header);
            self::assertSame(['alg' => 'HS256', 'kid' => "key-$i"], CompactJws::verify($token, $signer)->header, 'from the cache');
        }
        $cached = (new \ReflectionClass(CompactJws::class))->getProperty('headers')->getValue();
        self::assertIsArray($cached);
        self::assertLessThanOrEqual(16, count($cached));
        self::assertGreaterThan(0, count($cached));
    }

    /** A sender sizes its header: a long one is decoded every time, never kept. */
    public function testALongHeaderIsNotKept(): void
    {
        $signer = Key::forSigning(Algorithms::named('HS256'), str_repeat('k', 32));
        $cache = (new \ReflectionClass(CompactJws::class))->getProperty('headers');
        $long = CompactJws::sign($signer, 'x', ['kid' => str_repeat('a', CompactJws::CACHED_HEADER_CHARS)]);
        $before = $cache->getValue();
        self::assertSame(str_repeat('a', CompactJws::CACHED_HEADER_CHARS), CompactJws::verify($long, $signer)->header['kid']);
        self::assertSame($before, $cache->getValue());
        $short = CompactJws::sign($signer, 'x', ['kid' => 'short']);
        CompactJws::verify($short, $signer);
        self::assertArrayHasKey(explode('.', $short)[0], $cache->getValue());
    }

    public function testAHeaderObjectAfterWhiteSpaceIsAnObject(): void
    {
        $signer = Key::forSigning(Algorithms::named('HS256'), str_repeat('k', 32));
        $input = Base64Url::encode(" \n{\"alg\":\"HS256\"}") . '.' . Base64Url::encode('x');
        $token = $input . '.' . Base64Url::encode(hash_hmac('sha256', $input, str_repeat('k', 32), true));
        self::assertSame(['alg' => 'HS256'], CompactJws::verify($token, $signer)->header);
    }

    /** The RFC 7519 payload is a JSON object or not a claims set: a list, even after white space, is not one. */
    public function testClaimsThatAreAListAfterWhiteSpaceAreRefused(): void
    {
        [$signer, $verifier] = self::es256();
        $this->expectExceptionObject(MalformedToken::claimsNotObject('array'));
        CompactJws::verifyJwt(CompactJws::sign($signer, "\n [1]"), $verifier, self::clockAt(1000));
    }

    public function testSigningWithAVerificationKeyIsRefused(): void
    {
        // An HMAC secret is both halves: only the Key says whether it was given to sign.
        $verifier = Key::forVerification(Algorithms::named('HS256'), str_repeat('k', 32));
        $this->expectException(WeakKey::class);
        $this->expectExceptionMessage('HS256: expected a signing key, got a verification key');
        CompactJws::sign($verifier, 'x');
    }

    /** @return iterable<string, array{mixed, string}> */
    public static function callersAlgs(): iterable
    {
        yield 'none' => ['none', '"none"'];
        yield 'another algorithm' => ['HS512', '"HS512"'];
        yield 'the key\'s in lower case' => ['hs256', '"hs256"'];
        yield 'null' => [null, 'null'];
        yield 'an integer' => [256, '256'];
        // Loosely, true equals any non-empty string: only a strict comparison refuses it.
        yield 'true' => [true, 'true'];
    }

    /** @dataProvider callersAlgs */
    #[DataProvider('callersAlgs')]
    public function testACallersHeaderAlgNeverOverridesTheKeys(mixed $alg, string $shown): void
    {
        $signer = Key::forSigning(Algorithms::named('HS256'), str_repeat('k', 32));
        $this->expectException(AlgorithmNotAllowed::class);
        $this->expectExceptionMessage('header alg: expected "HS256", the algorithm bound to the signing key, or no alg member, got ' . $shown);
        CompactJws::sign($signer, 'x', ['alg' => $alg, 'typ' => 'JWT']);
    }

    public function testTheKeysAlgHeadsTheHeaderBeforeTheCallersMembers(): void
    {
        $signer = Key::forSigning(Algorithms::named('HS256'), str_repeat('k', 32));
        $expected = Base64Url::encode('{"alg":"HS256","typ":"JWT","kid":"k1"}') . '.' . Base64Url::encode('x');
        self::assertSame($expected, implode('.', array_slice(explode('.', CompactJws::sign($signer, 'x', ['typ' => 'JWT', 'kid' => 'k1'])), 0, 2)));
        self::assertSame($expected, implode('.', array_slice(explode('.', CompactJws::sign($signer, 'x', ['alg' => 'HS256', 'typ' => 'JWT', 'kid' => 'k1'])), 0, 2)), 'the key\'s own alg is allowed, and still comes first');
        [$header, $claims] = explode('.', CompactJws::signClaims($signer, ['sub' => 'a/b é']));
        self::assertSame(['{"alg":"HS256","typ":"JWT"}', '{"sub":"a/b é"}'], [Base64Url::decode($header), Base64Url::decode($claims)], 'JSON as written: slashes and non-ASCII unescaped');
    }

    /** @return iterable<string, array{string}> */
    public static function nonCanonicalBase64(): iterable
    {
        yield 'padding' => ['eyJ9='];
        yield 'standard alphabet' => ['ab+/'];
        yield 'non-zero trailing bits' => ['eR'];
        yield 'an impossible length' => ['abcde'];
        yield 'a trailing newline' => ["QUI\n"];
    }

    /** @dataProvider nonCanonicalBase64 */
    #[DataProvider('nonCanonicalBase64')]
    public function testNonCanonicalBase64UrlIsRefused(string $text): void
    {
        $this->expectException(MalformedToken::class);
        Base64Url::decode($text);
    }

    /** The table of canonical last characters agrees with the definition: re-encoding gives the text back. */
    public function testEveryLastCharacterIsAcceptedExactlyWhenItsEncodingIsCanonical(): void
    {
        $alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
        $accepted = 0;
        foreach (['Q', 'QU', 'QUJ', 'QUJD'] as $prefix) {
            foreach (str_split($alphabet) as $last) {
                $text = $prefix . $last;
                $canonical = Base64Url::encode((string) base64_decode(strtr($text, '-_', '+/'))) === $text;
                try {
                    Base64Url::decode($text);
                    $decoded = true;
                } catch (MalformedToken) {
                    $decoded = false;
                }
                self::assertSame($canonical, $decoded, $text);
                $accepted += (int) $decoded;
            }
        }
        self::assertSame(4 + 16 + 64 + 0, $accepted, '4 endings after 2 characters of a group, 16 after 3, all 64 after 4, none after 1');
    }

    /** @return iterable<string, array{int, string}> part (0 header, 1 payload, 2 signature) and what is done to it */
    public static function looseBase64UrlParts(): iterable
    {
        foreach (['header', 'payload', 'signature'] as $index => $part) {
            yield "$part with = padding" => [$index, '='];
            yield "$part with == padding" => [$index, '=='];
            yield "$part with a trailing newline" => [$index, "\n"];
            yield "$part with a space" => [$index, ' '];
            yield "$part with the standard alphabet's +" => [$index, '+'];
            yield "$part with the standard alphabet's /" => [$index, '/'];
            yield "$part with a percent-encoded character" => [$index, '%3D'];
        }
    }

    /**
     * Every part is decoded strictly: what a lax decoder would skip or accept (padding, white space,
     * the other alphabet) makes the token malformed, named by its part, before any signature check.
     *
     * @dataProvider looseBase64UrlParts
     */
    #[DataProvider('looseBase64UrlParts')]
    public function testEveryPartMustBeStrictBase64Url(int $index, string $appended): void
    {
        [$signer, $verifier] = self::es256();
        $parts = explode('.', CompactJws::sign($signer, '{"sub":"alice"}'));
        // Four characters more keep the length a whole number of groups, as the original's.
        $parts[$index] .= str_pad($appended, 4, 'A', STR_PAD_LEFT);
        $this->expectException(MalformedToken::class);
        $this->expectExceptionMessage(['header', 'payload', 'signature'][$index] . ': expected canonical unpadded base64url');
        CompactJws::verify(implode('.', $parts), $verifier);
    }

    /** @return iterable<string, array{string, \Closure(string): string}> a signature made longer or shorter */
    public static function ecdsaSignaturesOfTheWrongLength(): iterable
    {
        // r‖00‖s: a lax length check would read s from byte 33 and strip the zero: the same signature, malleable.
        yield 'r, a zero byte, s (65 bytes)' => ['ES256: expected a 64-byte signature, got 65 bytes', static fn (string $rs): string => substr($rs, 0, 32) . "\0" . substr($rs, 32)];
        yield 'r, s and a zero byte (65 bytes)' => ['ES256: expected a 64-byte signature, got 65 bytes', static fn (string $rs): string => $rs . "\0"];
        yield 'a zero byte, r, s (65 bytes)' => ['ES256: expected a 64-byte signature, got 65 bytes', static fn (string $rs): string => "\0" . $rs];
        yield 'r and s without their last byte (63 bytes)' => ['ES256: expected a 64-byte signature, got 63 bytes', static fn (string $rs): string => substr($rs, 0, 63)];
        yield 'twice as long (128 bytes)' => ['ES256: expected a 64-byte signature, got 128 bytes', static fn (string $rs): string => $rs . $rs];
    }

    /** @dataProvider ecdsaSignaturesOfTheWrongLength */
    #[DataProvider('ecdsaSignaturesOfTheWrongLength')]
    public function testAnEcdsaSignatureIsExactlyTwiceTheCoordinateSize(string $message, \Closure $change): void
    {
        [$signer, $verifier] = self::es256();
        [$header, $payload, $signature] = explode('.', CompactJws::sign($signer, 'x'));
        $this->expectException(SignatureRejected::class);
        $this->expectExceptionMessage($message);
        CompactJws::verify("$header.$payload." . Base64Url::encode($change(Base64Url::decode($signature))), $verifier);
    }

    /** @return iterable<string, array{int}> */
    public static function hmacTagBytes(): iterable
    {
        yield 'its first byte' => [0];
        yield 'its 16th byte' => [15];
        yield 'its 17th byte (past a 16-byte prefix compare)' => [16];
        yield 'its last byte' => [31];
    }

    /**
     * The whole tag is compared, by hash_equals (in constant time), with the full-length tag the key
     * makes: a changed byte anywhere is refused, and the spy sees exactly that one comparison.
     *
     * @dataProvider hmacTagBytes
     */
    #[DataProvider('hmacTagBytes')]
    public function testAnHmacTagWithAnyByteChangedIsRefusedByHashEquals(int $byte): void
    {
        $key = Key::forVerification(Algorithms::named('HS256'), str_repeat('k', 32));
        [$header, $payload, $tag] = explode('.', CompactJws::sign(Key::forSigning(Algorithms::named('HS256'), str_repeat('k', 32)), 'x'));
        $expected = Base64Url::decode($tag);
        HashEqualsSpy::$calls = [];
        self::assertSame('x', CompactJws::verify("$header.$payload.$tag", $key)->payload);
        self::assertSame([[$expected, $expected]], HashEqualsSpy::$calls, 'one hash_equals of the key\'s tag and the token\'s');

        $changed = $expected;
        $changed[$byte] = chr(ord($changed[$byte]) ^ 0x01);
        HashEqualsSpy::$calls = [];
        try {
            CompactJws::verify("$header.$payload." . Base64Url::encode($changed), $key);
            self::fail('a tag with byte ' . $byte . ' changed verified');
        } catch (SignatureRejected $e) {
            self::assertSame('HS256: expected a signature that verifies with the key, got one that does not', $e->getMessage());
        }
        self::assertSame([[$expected, $changed]], HashEqualsSpy::$calls);
    }

    /** @return iterable<string, array{string, string, string}> claim, claims set (JSON), type named */
    public static function timeClaimsOfAnotherType(): iterable
    {
        yield 'exp a float' => ['exp', '{"exp":2000.5}', 'float'];
        yield 'exp a whole float' => ['exp', '{"exp":2000.0}', 'float'];
        yield 'exp in exponent notation' => ['exp', '{"exp":2e3}', 'float'];
        yield 'nbf a float' => ['nbf', '{"nbf":999.5}', 'float'];
        yield 'exp true' => ['exp', '{"exp":true}', 'bool'];
        yield 'nbf a string' => ['nbf', '{"nbf":"999"}', 'string'];
        yield 'exp beyond PHP_INT_MAX (decoded as a string)' => ['exp', '{"exp":92233720368547758070}', 'string'];
    }

    /**
     * NumericDate here is whole seconds: another type is refused with the project's exception (which
     * jws.php and the runner catch), never a TypeError from the ?int it is read into.
     *
     * @dataProvider timeClaimsOfAnotherType
     */
    #[DataProvider('timeClaimsOfAnotherType')]
    public function testATimeClaimOfAnotherTypeIsRefusedNamingItsType(string $claim, string $claims, string $type): void
    {
        [$signer, $verifier] = self::es256();
        $this->expectException(ClaimRejected::class);
        $this->expectExceptionMessage("$claim: expected a NumericDate (an integer), got $type");
        CompactJws::verifyJwt(CompactJws::sign($signer, $claims), $verifier, self::clockAt(1000));
    }

    public function testATokenWithoutDotsOrWithManyIsRefusedCountingItsParts(): void
    {
        [, $verifier] = self::es256();
        foreach (['' => 1, 'abc' => 1, 'a.b.c.d.e' => 5, '..' => 3] as $token => $parts) {
            try {
                CompactJws::verify((string) $token, $verifier);
                self::fail("'$token' verified");
            } catch (MalformedToken|AlgorithmNotAllowed $e) {
                self::assertSame($parts === 3 ? 'header: expected a JSON object, got text that is not JSON' : "expected a compact JWS of 3 dot-separated parts, got $parts", $e->getMessage(), (string) $token);
            }
        }
    }

    public function testATokenWithoutThreePartsIsRefused(): void
    {
        [, $verifier] = self::es256();
        $this->expectExceptionMessage('expected a compact JWS of 3 dot-separated parts, got 2');
        CompactJws::verify('a.b', $verifier);
    }

    public function testKeysThatDoNotFitTheirAlgorithmAreRefused(): void
    {
        $p384 = openssl_pkey_new(['private_key_type' => OPENSSL_KEYTYPE_EC, 'curve_name' => 'secp384r1']);
        $cases = [
            'ES256 with a P-384 key' => fn () => Key::forVerification(Algorithms::named('ES256'), $p384),
            'RS256 with an EC key' => fn () => Key::forVerification(Algorithms::named('RS256'), $p384),
            'HS256 with an asymmetric key' => fn () => Key::forVerification(Algorithms::named('HS256'), $p384),
            'HS512 with 32 bytes' => fn () => Key::forVerification(Algorithms::named('HS512'), random_bytes(32)),
            'EdDSA signing with a public key' => fn () => Key::forSigning(Algorithms::named('EdDSA'), random_bytes(32)),
            'ES256 signing with a public key' => fn () => Key::forSigning(Algorithms::named('ES384'), Jwk::import(Jwk::publicOf($p384))),
        ];
        foreach ($cases as $name => $attempt) {
            try {
                $attempt();
                self::fail("$name was accepted");
            } catch (WeakKey) {
                self::addToAssertionCount(1);
            }
        }
    }

    public function testExpiredAndNotYetValidTokensAreRefusedByAFixedClock(): void
    {
        [$signer, $verifier] = self::es256();
        $token = CompactJws::signClaims($signer, ['sub' => 'alice', 'nbf' => 1000, 'exp' => 2000]);
        self::assertSame('alice', CompactJws::verifyJwt($token, $verifier, self::clockAt(1500))->claims['sub'] ?? null);
        foreach ([999 => 'nbf: expected a time at or before now (999), got 1000', 2000 => 'exp: expected a time after now (2000), got 2000'] as $now => $message) {
            try {
                CompactJws::verifyJwt($token, $verifier, self::clockAt($now));
                self::fail("accepted at $now");
            } catch (ClaimRejected $e) {
                self::assertSame($message, $e->getMessage());
            }
        }
    }

    public function testANonNumericExpIsRefused(): void
    {
        [$signer, $verifier] = self::es256();
        $this->expectException(ClaimRejected::class);
        $this->expectExceptionMessage('exp: expected a NumericDate (an integer), got string');
        CompactJws::verifyJwt(CompactJws::signClaims($signer, ['exp' => '2000']), $verifier, self::clockAt(1000));
    }

    public function testAnHmacTagOfHalfItsLengthIsRefusedByLength(): void
    {
        $key = Key::forVerification(Algorithms::named('HS256'), str_repeat('k', 32));
        $token = CompactJws::sign(Key::forSigning(Algorithms::named('HS256'), str_repeat('k', 32)), 'x');
        [$header, $payload, $tag] = explode('.', $token);
        $this->expectException(SignatureRejected::class);
        $this->expectExceptionMessage('HS256: expected a 32-byte signature, got 16 bytes');
        CompactJws::verify("$header.$payload." . Base64Url::encode(substr(Base64Url::decode($tag), 0, 16)), $key);
    }

    public function testATokenOfFourPartsIsRefused(): void
    {
        [$signer, $verifier] = self::es256();
        $this->expectException(MalformedToken::class);
        $this->expectExceptionMessage('expected a compact JWS of 3 dot-separated parts, got 4');
        CompactJws::verify(CompactJws::sign($signer, 'x') . '.e30', $verifier);
    }

    /**
     * 0 is a time like any other (loosely, 0 == null would take it for absent): exp 0 has passed,
     * nbf 0 has not come a second before the epoch.
     */
    public function testTimeClaimsOfZeroAreChecked(): void
    {
        [$signer, $verifier] = self::es256();
        foreach ([['exp', 1000, 'exp: expected a time after now (1000), got 0'], ['nbf', -1, 'nbf: expected a time at or before now (-1), got 0']] as [$claim, $now, $message]) {
            try {
                CompactJws::verifyJwt(CompactJws::signClaims($signer, [$claim => 0]), $verifier, self::clockAt($now));
                self::fail("$claim 0 accepted at $now");
            } catch (ClaimRejected $e) {
                self::assertSame($message, $e->getMessage());
            }
        }
        self::assertSame(['nbf' => 0], CompactJws::verifyJwt(CompactJws::signClaims($signer, ['nbf' => 0]), $verifier, self::clockAt(0))->claims);
    }

    /** The type of a header that is not an object is named even at the decoder's depth limit (63 nested lists). */
    public function testAHeaderListAtTheDepthLimitIsNamedAnArray(): void
    {
        [, $verifier] = self::es256();
        $this->expectExceptionObject(MalformedToken::headerNotObject('array'));
        CompactJws::verify(Base64Url::encode(str_repeat('[', 63) . str_repeat(']', 63)) . '.e30.c2ln', $verifier);
    }

    public function testTheNbfInstantItselfIsValid(): void
    {
        [$signer, $verifier] = self::es256();
        $token = CompactJws::signClaims($signer, ['sub' => 'alice', 'nbf' => 1000]);
        self::assertSame('alice', CompactJws::verifyJwt($token, $verifier, self::clockAt(1000))->claims['sub'] ?? null);
    }

    public function testAnExpOfNullIsRefusedNotTakenForAbsent(): void
    {
        [$signer, $verifier] = self::es256();
        $this->expectException(ClaimRejected::class);
        $this->expectExceptionMessage('exp: expected a NumericDate (an integer), got null');
        CompactJws::verifyJwt(CompactJws::signClaims($signer, ['exp' => null]), $verifier, self::clockAt(1000));
    }

    public function testAClaimsSetThatIsNotAnObjectIsRefusedNamingTheClaimsSet(): void
    {
        [$signer, $verifier] = self::es256();
        $token = CompactJws::sign($signer, '[1]');
        self::assertSame('[1]', CompactJws::verify($token, $verifier)->payload, 'a JWS may carry any payload');
        $this->expectExceptionObject(MalformedToken::claimsNotObject('array'));
        CompactJws::verifyJwt($token, $verifier, self::clockAt(1000));
    }

    public function testAHeaderThatIsNotAnObjectIsRefusedNamingTheHeader(): void
    {
        [, $verifier] = self::es256();
        $this->expectExceptionObject(MalformedToken::headerNotObject('array'));
        CompactJws::verify(Base64Url::encode('[]') . '.e30.c2ln', $verifier);
    }

    public function testClaimsBeyondTheDecodersDepthLimitOf64AreRefused(): void
    {
        [$signer, $verifier] = self::es256();
        // json_decode's depth 64 counts the empty innermost array as a level: 63 brackets pass, 64 do not.
        $nested = static fn (int $arrays): string => '{"a":' . str_repeat('[', $arrays) . str_repeat(']', $arrays) . '}';
        $deepest = CompactJws::sign($signer, $nested(62));
        self::assertArrayHasKey('a', CompactJws::verifyJwt($deepest, $verifier, self::clockAt(1000))->claims);
        $this->expectExceptionObject(MalformedToken::claimsNotObject('text that is not JSON'));
        CompactJws::verifyJwt(CompactJws::sign($signer, $nested(63)), $verifier, self::clockAt(1000));
    }
}
