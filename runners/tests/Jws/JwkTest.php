<?php

declare(strict_types=1);

namespace PhpCryptoBench\Tests\Jws;

use OpenSSLAsymmetricKey;
use PhpCryptoBench\Exception\MalformedToken;
use PhpCryptoBench\Jws\Algorithms;
use PhpCryptoBench\Jws\Base64Url;
use PhpCryptoBench\Jws\CompactJws;
use PhpCryptoBench\Jws\Jwk;
use PhpCryptoBench\Jws\Key;
use PhpCryptoBench\Jws\KnownAnswers;
use PhpCryptoBench\Tests\Support\SharedKeys;
use PHPUnit\Framework\TestCase;
use PHPUnit\Framework\Attributes\DataProvider;

/** JWKs to keys and back (RFC 7517, RFC 7518 section 6, RFC 8037): what is imported is what the JWK says, or nothing. */
final class JwkTest extends TestCase
{
    /** P-256 private keys from fixed scalars: this one's public x has a leading zero byte, the next one's y. */
    private const D_SHORT_X = 78;
    private const D_SHORT_Y = 48;

    private static function p256(int $scalar): OpenSSLAsymmetricKey
    {
        $key = openssl_pkey_new(['ec' => ['curve_name' => 'prime256v1', 'd' => self::scalar($scalar)]]);
        self::assertInstanceOf(OpenSSLAsymmetricKey::class, $key);
        return $key;
    }

    private static function scalar(int $scalar): string
    {
        return str_pad(pack('N', $scalar), 32, "\x11", STR_PAD_LEFT);
    }

    /** @return array<string, string> the private JWK of self::p256($scalar) */
    private static function privateJwk(int $scalar): array
    {
        return Jwk::publicOf(self::p256($scalar)) + ['d' => Base64Url::encode(self::scalar($scalar))];
    }

    /** $a − $b for big-endian numbers of one length, $a ≥ $b (no GMP here). */
    private static function minus(string $a, string $b): string
    {
        $borrow = 0;
        for ($i = strlen($a) - 1; $i >= 0; $i--) {
            $digit = ord($a[$i]) - ord($b[$i]) - $borrow;
            $borrow = $digit < 0 ? 1 : 0;
            $a[$i] = chr($digit + 256 * $borrow);
        }
        return $a;
    }

    public function testPublicCoordinatesArePaddedToTheCurveSize(): void
    {
        foreach ([self::D_SHORT_X => 'x', self::D_SHORT_Y => 'y'] as $scalar => $short) {
            $details = openssl_pkey_get_details(self::p256($scalar));
            self::assertSame(31, strlen($details['ec'][$short]), "OpenSSL gives $short without its leading zero");
            $jwk = Jwk::publicOf(self::p256($scalar));
            self::assertSame(['kty', 'crv', 'x', 'y'], array_keys($jwk));
            self::assertSame(['EC', 'P-256'], [$jwk['kty'], $jwk['crv']]);
            self::assertSame("\0" . $details['ec'][$short], Base64Url::decode($jwk[$short]));
            self::assertSame(32, strlen(Base64Url::decode($jwk[$short === 'x' ? 'y' : 'x'])));
        }
    }

    /** A key whose coordinate has a leading zero round-trips: imported publicly and privately, it signs and verifies. */
    public function testAKeyWithALeadingZeroCoordinateImportsBothWays(): void
    {
        $algorithm = Algorithms::named('ES256');
        foreach ([self::D_SHORT_X, self::D_SHORT_Y] as $scalar) {
            $signer = Key::forSigning($algorithm, Jwk::import(self::privateJwk($scalar)));
            $verifier = Key::forVerification($algorithm, Jwk::import(Jwk::publicOf(self::p256($scalar))));
            self::assertSame('p', CompactJws::verify(CompactJws::sign($signer, 'p'), $verifier)->payload);
            self::assertSame(Jwk::publicOf(self::p256($scalar)), Jwk::publicOf(Jwk::import(self::privateJwk($scalar))));
        }
    }

    /** @return iterable<string, array{array<string, string>, string}> */
    public static function privateJwksOfAnotherPublicPart(): iterable
    {
        $own = self::privateJwk(5);
        $other = Jwk::publicOf(self::p256(6));
        yield 'EC: d of one key, x and y of another' => [['d' => $own['d']] + $other, 'JWK: expected d to belong to the public point x, y; it does not'];
        yield 'EC: x its own, y of another key' => [['y' => $other['y']] + $own, 'JWK: expected d to belong to the public point x, y; it does not'];
        // The point's mirror image: the same x, the other y (p - y); x alone would not tell them apart.
        $mirror = self::minus((string) hex2bin('ffffffff00000001000000000000000000000000ffffffffffffffffffffffff'), Base64Url::decode($own['y']));
        yield 'EC: x its own, y mirrored' => [['y' => Base64Url::encode($mirror)] + $own, 'JWK: expected d to belong to the public point x, y; it does not'];
        $seed = str_repeat("\x07", 32);
        $otherPublic = sodium_crypto_sign_publickey(sodium_crypto_sign_seed_keypair(str_repeat("\x08", 32)));
        yield 'OKP: d of one key, x of another' => [['kty' => 'OKP', 'crv' => 'Ed25519', 'd' => Base64Url::encode($seed), 'x' => Base64Url::encode($otherPublic)], 'JWK: expected d to belong to the public key x; it does not'];
    }

    /**
     * A private JWK whose d does not make its public part is refused when it is imported: whoever
     * verifies uses x (and y), and would refuse every signature d makes.
     *
     * @dataProvider privateJwksOfAnotherPublicPart
     * @param array<string, string> $jwk
     */
    #[DataProvider('privateJwksOfAnotherPublicPart')]
    public function testAPrivateJwkWhoseDDoesNotMatchItsPublicPartIsRefused(array $jwk, string $message): void
    {
        $this->expectException(MalformedToken::class);
        $this->expectExceptionMessage($message);
        Jwk::import($jwk);
    }

    public function testAnEcScalarOpensslRefusesLeavesNoErrorQueued(): void
    {
        // d = 0xff…ff exceeds P-256's order: OpenSSL refuses it (and queues why), PHP then makes a random
        // key instead, whose point is not the JWK's.
        $jwk = ['d' => Base64Url::encode(str_repeat("\xff", 32))] + self::privateJwk(5);
        try {
            Jwk::import($jwk);
            self::fail('a scalar beyond the order was imported');
        } catch (MalformedToken $e) {
            self::assertSame('JWK: expected d to belong to the public point x, y; it does not', $e->getMessage());
        }
        self::assertFalse(openssl_error_string(), 'the import drained OpenSSL\'s reasons');
    }

    public function testAMatchingOkpPrivateJwkSignsAsItsSeed(): void
    {
        $key = Jwk::import(KnownAnswers::RFC8037_KEY);
        self::assertSame(sodium_crypto_sign_secretkey(sodium_crypto_sign_seed_keypair(Base64Url::decode(KnownAnswers::RFC8037_KEY['d']))), $key);
        self::assertSame(Base64Url::decode(KnownAnswers::RFC8037_KEY['x']), Jwk::import(['kty' => 'OKP', 'crv' => 'Ed25519', 'x' => KnownAnswers::RFC8037_KEY['x']]));
        self::assertSame(['kty' => 'OKP', 'crv' => 'Ed25519', 'x' => KnownAnswers::RFC8037_KEY['x']], Jwk::publicOf($key), 'from the 64-byte secret key');
        self::assertSame(['kty' => 'OKP', 'crv' => 'Ed25519', 'x' => KnownAnswers::RFC8037_KEY['x']], Jwk::publicOf(Base64Url::decode(KnownAnswers::RFC8037_KEY['x'])), 'from the public key');
    }

    /** @return iterable<string, array{array<string, mixed>, string}> */
    public static function malformedJwks(): iterable
    {
        $ec = Jwk::publicOf(self::p256(5));
        yield 'no kty' => [['crv' => 'P-256'], 'JWK: expected kty EC, RSA, OKP or oct, got null'];
        yield 'kty in lower case' => [['kty' => 'ec'] + $ec, 'JWK: expected kty EC, RSA, OKP or oct, got "ec"'];
        yield 'an EC curve not in RFC 7518' => [['crv' => 'P-512'] + $ec, 'JWK: expected crv P-256, P-384 or P-521, got "P-512"'];
        yield 'an EC x one byte short' => [['x' => Base64Url::encode(str_repeat("\x01", 31))] + $ec, 'JWK: expected "x" of 32 bytes, got 31'];
        yield 'an EC y one byte long' => [['y' => Base64Url::encode(str_repeat("\x01", 33))] + $ec, 'JWK: expected "y" of 32 bytes, got 33'];
        yield 'an EC d one byte short' => [['d' => Base64Url::encode(str_repeat("\x01", 31))] + $ec, 'JWK: expected "d" of 32 bytes, got 31'];
        yield 'an EC point off the curve' => [['y' => Base64Url::encode(str_repeat("\x01", 32))] + $ec, 'JWK: OpenSSL refused the EC point not on the curve'];
        yield 'an EC x that is a number' => [['x' => 5] + $ec, 'JWK: expected a base64url string member "x"'];
        yield 'an EC x in padded base64url' => [['x' => $ec['x'] . '='] + $ec, 'JWK member x: expected canonical unpadded base64url'];
        yield 'an OKP curve other than Ed25519' => [['kty' => 'OKP', 'crv' => 'X25519', 'x' => $ec['x']], 'JWK: expected crv Ed25519, got "X25519"'];
        yield 'an OKP x one byte short' => [['kty' => 'OKP', 'crv' => 'Ed25519', 'x' => Base64Url::encode(str_repeat("\x01", 31))], 'JWK: expected "x" of 32 bytes, got 31'];
        yield 'an OKP d one byte long' => [['kty' => 'OKP', 'crv' => 'Ed25519', 'x' => KnownAnswers::RFC8037_KEY['x'], 'd' => Base64Url::encode(str_repeat("\x01", 33))], 'JWK: expected "d" of 32 bytes, got 33'];
        yield 'an EC crv that is a number' => [['crv' => 256] + $ec, 'JWK: expected crv P-256, P-384 or P-521, got 256'];
        yield 'an EC crv that is a list' => [['crv' => ['P-256']] + $ec, 'JWK: expected crv P-256, P-384 or P-521, got ["P-256"]'];
        yield 'an EC d that is empty' => [['d' => ''] + $ec, 'JWK: expected a non-empty member "d"'];
        yield 'an OKP crv that is true' => [['kty' => 'OKP', 'crv' => true, 'x' => KnownAnswers::RFC8037_KEY['x']], 'JWK: expected crv Ed25519, got true'];
        yield 'an OKP d that is empty' => [['kty' => 'OKP', 'crv' => 'Ed25519', 'x' => KnownAnswers::RFC8037_KEY['x'], 'd' => ''], 'JWK: expected a non-empty member "d"'];
        // openssl_pkey_new() would make a "private" key of d = 0 from it, which signs garbage.
        yield 'an RSA d that is empty' => [['d' => ''] + KnownAnswers::RFC7520_RSA, 'JWK: expected a non-empty member "d"'];
        yield 'an RSA n that is empty' => [['n' => ''] + KnownAnswers::RFC7520_RSA, 'JWK: expected a non-empty member "n"'];
        yield 'an RSA prime that is empty' => [['p' => ''] + KnownAnswers::RFC7520_RSA, 'JWK: expected a non-empty member "p"'];
        yield 'an RSA key without e' => [['kty' => 'RSA', 'n' => KnownAnswers::RFC7520_RSA['n']], 'JWK: expected a base64url string member "e"'];
        yield 'an oct key without k' => [['kty' => 'oct'], 'JWK: expected a base64url string member "k"'];
    }

    /**
     * @dataProvider malformedJwks
     * @param array<string, mixed> $jwk
     */
    #[DataProvider('malformedJwks')]
    public function testAMalformedJwkIsRefusedSayingWhy(array $jwk, string $message): void
    {
        $this->expectException(MalformedToken::class);
        $this->expectExceptionMessage($message);
        Jwk::import($jwk);
    }

    public function testAnRsaJwkIsTheKeyItDescribes(): void
    {
        $public = Jwk::import(['kty' => 'RSA', 'n' => KnownAnswers::RFC7520_RSA['n'], 'e' => 'AQAB']);
        $details = openssl_pkey_get_details($public);
        self::assertSame(Base64Url::decode(KnownAnswers::RFC7520_RSA['n']), $details['rsa']['n']);
        self::assertSame("\x01\x00\x01", $details['rsa']['e']);
        self::assertArrayNotHasKey('d', $details['rsa']);
        self::assertSame(['kty' => 'RSA', 'n' => KnownAnswers::RFC7520_RSA['n'], 'e' => 'AQAB'], Jwk::publicOf($public));
        $private = openssl_pkey_get_details(Jwk::import(KnownAnswers::RFC7520_RSA));
        self::assertSame(Base64Url::decode(KnownAnswers::RFC7520_RSA['d']), $private['rsa']['d']);
    }

    public function testAnRsaPrivateJwkKeepsItsCrtMembers(): void
    {
        $generated = SharedKeys::rsa(2048);
        $rsa = openssl_pkey_get_details($generated)['rsa'];
        $jwk = ['kty' => 'RSA'];
        foreach (['n' => 'n', 'e' => 'e', 'd' => 'd', 'p' => 'p', 'q' => 'q', 'dp' => 'dmp1', 'dq' => 'dmq1', 'qi' => 'iqmp'] as $member => $name) {
            $jwk[$member] = Base64Url::encode($rsa[$name]);
        }
        $imported = openssl_pkey_get_details(Jwk::import($jwk))['rsa'];
        foreach (['p', 'q', 'dmp1', 'dmq1', 'iqmp'] as $name) {
            self::assertSame($rsa[$name], $imported[$name] ?? null, $name);
        }
        // PS needs them (its RSASSA-PSS form is written as an RSAPrivateKey): it signs with this key.
        $ps256 = Algorithms::named('PS256');
        $token = CompactJws::sign(Key::forSigning($ps256, Jwk::import($jwk)), 'p');
        self::assertSame('p', CompactJws::verify($token, Key::forVerification($ps256, Jwk::import(Jwk::publicOf($generated))))->payload);
    }

    public function testAnRsaPrivateKeyOpensslRefusesIsRefused(): void
    {
        // A prime of one byte: OpenSSL will not build the key, and queues why.
        try {
            Jwk::import(['p' => 'Aw'] + KnownAnswers::RFC7520_RSA);
            self::fail('imported');
        } catch (MalformedToken $e) {
            self::assertSame('JWK: OpenSSL refused the RSA private key', $e->getMessage());
        }
        self::assertFalse(openssl_error_string(), 'the import drained OpenSSL\'s reasons');
    }

    /** @return iterable<string, array{int}> */
    public static function ed25519KeysOfAnotherLength(): iterable
    {
        yield 'a 31-byte key' => [31];
        yield 'a 33-byte key' => [33];
        yield 'a 65-byte key' => [65];
        yield 'a seed and a half' => [48];
    }

    /** @dataProvider ed25519KeysOfAnotherLength */
    #[DataProvider('ed25519KeysOfAnotherLength')]
    public function testAnEd25519KeyOfAnotherLengthHasNoPublicJwk(int $bytes): void
    {
        $this->expectException(MalformedToken::class);
        $this->expectExceptionMessage("JWK: expected a 64-byte Ed25519 secret key or a 32-byte public key, got $bytes bytes");
        Jwk::publicOf(str_repeat("\x01", $bytes));
    }

    public function testAnEcScalarOfZeroIsRefused(): void
    {
        // PHP makes a new random key from a zero scalar: it is refused because its point is not the JWK's.
        $this->expectExceptionMessage('JWK: expected d to belong to the public point x, y; it does not');
        Jwk::import(['d' => Base64Url::encode(str_repeat("\0", 32))] + self::privateJwk(5));
    }

    public function testAPublicKeyImportLeavesNoErrorQueued(): void
    {
        foreach ([KnownAnswers::RFC7515_ES256_KEY, KnownAnswers::RFC7515_RS256_KEY] as $jwk) {
            Jwk::import($jwk);
            self::assertFalse(openssl_error_string(), $jwk['kty'] . ': the decoders\' reasons were drained');
        }
    }

    public function testAnOctJwkIsItsSecret(): void
    {
        self::assertSame(str_repeat("\x42", 32), Jwk::import(['kty' => 'oct', 'k' => Base64Url::encode(str_repeat("\x42", 32))]));
    }

    public function testPublicOfRefusesAKeyThatIsNeitherRsaNorAJwsCurve(): void
    {
        $secp256k1 = openssl_pkey_new(['private_key_type' => OPENSSL_KEYTYPE_EC, 'curve_name' => 'secp256k1']);
        $this->expectException(MalformedToken::class);
        $this->expectExceptionMessage('JWK: expected an RSA key or an EC key on P-256, P-384 or P-521');
        Jwk::publicOf($secp256k1);
    }

    public function testEachCurveIsWrittenWithItsNameAndSize(): void
    {
        foreach (['prime256v1' => ['P-256', 32], 'secp384r1' => ['P-384', 48], 'secp521r1' => ['P-521', 66]] as $curve => [$crv, $bytes]) {
            $jwk = Jwk::publicOf(openssl_pkey_new(['private_key_type' => OPENSSL_KEYTYPE_EC, 'curve_name' => $curve]));
            self::assertSame($crv, $jwk['crv']);
            self::assertSame([$bytes, $bytes], [strlen(Base64Url::decode($jwk['x'])), strlen(Base64Url::decode($jwk['y']))], $crv);
            self::assertSame($curve, openssl_pkey_get_details(Jwk::import($jwk))['ec']['curve_name']);
        }
    }
}
