<?php

declare(strict_types=1);

namespace PhpCryptoBench\Jws;

use Closure;
use PhpCryptoBench\Exception\AlgorithmNotAllowed;
use PhpCryptoBench\Exception\MalformedToken;
use PhpCryptoBench\Exception\SignatureRejected;
use PhpCryptoBench\Exception\VerificationFailed;
use PhpCryptoBench\Exception\WeakKey;

/** The tokens and keys RFC 8725 says a verifier must refuse; each must fail with its own exception. */
final class AttackChecks
{
    /** @return list<string> the attacks refused */
    public static function run(): array
    {
        $ecKey = openssl_pkey_new(['private_key_type' => OPENSSL_KEYTYPE_EC, 'curve_name' => 'prime256v1']);
        $es256 = Algorithms::named('ES256');
        $verifier = Key::forVerification($es256, Jwk::import(Jwk::publicOf($ecKey)));
        $token = CompactJws::sign(Key::forSigning($es256, $ecKey), '{"sub":"alice"}');
        [$header, $payload, $signature] = explode('.', $token);
        $rsaPublicPem = (string) openssl_pkey_get_details(Jwk::import(['kty' => 'RSA', 'n' => KnownAnswers::RFC7520_RSA['n'], 'e' => 'AQAB']))['key'];
        $hsWithPublicKey = Base64Url::encode('{"alg":"HS256"}') . '.' . $payload;
        $hsWithPublicKey .= '.' . Base64Url::encode(hash_hmac('sha256', $hsWithPublicKey, $rsaPublicPem, true));
        $rsVerifier = Key::forVerification(Algorithms::named('RS256'), Jwk::import(['kty' => 'RSA', 'n' => KnownAnswers::RFC7520_RSA['n'], 'e' => 'AQAB']));
        [$psVerifier, $pssSaltTooLong, $pssWithPkcs1] = self::ps256Forgeries();
        $checks = [
            'alg "none" with an empty signature' => [AlgorithmNotAllowed::class, fn () => CompactJws::verify(Base64Url::encode('{"alg":"none"}') . '.' . $payload . '.', $verifier)],
            'HS256 signed with the RSA public key as its secret (alg confusion)' => [AlgorithmNotAllowed::class, fn () => CompactJws::verify($hsWithPublicKey, $rsVerifier)],
            'an ES256 key on P-384' => [WeakKey::class, fn () => Key::forVerification($es256, openssl_pkey_new(['private_key_type' => OPENSSL_KEYTYPE_EC, 'curve_name' => 'secp384r1']))],
            // 1024 bits exactly, its top bit set (a random first byte made it 1017 to 1024 bits).
            'an RSA key under 2048 bits' => [WeakKey::class, fn () => Key::forVerification(Algorithms::named('RS256'), Jwk::import(['kty' => 'RSA', 'n' => Base64Url::encode("\x80" . str_repeat("\x5b", 127)), 'e' => 'AQAB']))],
            'a PEM public key as an HMAC secret' => [WeakKey::class, fn () => Key::forVerification(Algorithms::named('HS256'), $rsaPublicPem)],
            'a signature one byte short' => [SignatureRejected::class, fn () => CompactJws::verify("$header.$payload." . Base64Url::encode(substr(Base64Url::decode($signature), 1)), $verifier)],
            'a DER signature where R‖S belongs' => [SignatureRejected::class, fn () => CompactJws::verify("$header.$payload." . Base64Url::encode(EcdsaSignature::rawToDer(Base64Url::decode($signature), 32, 'ES256')), $verifier)],
            'a PS256 signature with a salt longer than the hash' => [SignatureRejected::class, fn () => CompactJws::verify($pssSaltTooLong, $psVerifier)],
            'a PS256 signature with PKCS#1 v1.5 padding' => [SignatureRejected::class, fn () => CompactJws::verify($pssWithPkcs1, $psVerifier)],
            'a changed payload' => [SignatureRejected::class, fn () => CompactJws::verify($header . '.' . Base64Url::encode('{"sub":"mallory"}') . '.' . $signature, $verifier)],
            'padding in base64url' => [MalformedToken::class, fn () => CompactJws::verify("$header.$payload.$signature=", $verifier)],
            'a header that is a JSON list' => [MalformedToken::class, fn () => CompactJws::verify(Base64Url::encode('["ES256"]') . ".$payload.$signature", $verifier)],
        ];
        foreach ($checks as $name => [$expected, $attempt]) {
            self::expectRefusal($name, $expected, $attempt);
        }
        return array_keys($checks);
    }

    /**
     * A PS256 verification key, and two tokens under its header that must not verify: signed with a
     * 64-byte salt (RFC 7518 section 3.5 fixes 32), and with RS256's PKCS#1 v1.5 padding.
     *
     * @return array{0: Key, 1: string, 2: string}
     */
    private static function ps256Forgeries(): array
    {
        $rsa = openssl_pkey_new(['private_key_type' => OPENSSL_KEYTYPE_RSA, 'private_key_bits' => 2048]);
        $details = $rsa === false ? false : openssl_pkey_get_details($rsa);
        if ($details === false) {
            throw VerificationFailed::operationFailed('JWS attack check: PS256', 'expected an RSA-2048 key, OpenSSL refused');
        }
        $input = Base64Url::encode('{"alg":"PS256"}') . '.' . Base64Url::encode('{"sub":"alice"}');
        $longSalt = '';
        $pkcs1 = '';
        openssl_sign($input, $longSalt, RsaPssKey::of($details['rsa'], 'PS256', 'sha256', 64), 'sha256');
        openssl_sign($input, $pkcs1, $rsa, 'sha256');
        $verifier = Key::forVerification(Algorithms::named('PS256'), Jwk::import(Jwk::publicOf($rsa)));
        return [$verifier, "$input." . Base64Url::encode($longSalt), "$input." . Base64Url::encode($pkcs1)];
    }

    /**
     * @param class-string $expected
     * @throws VerificationFailed when $attempt is accepted, or refused with another exception
     */
    public static function expectRefusal(string $name, string $expected, Closure $attempt): void
    {
        try {
            $attempt();
        } catch (\Throwable $e) {
            if ($e instanceof $expected) {
                return;
            }
            throw VerificationFailed::vectorMismatch("JWS attack check: $name", 0, $expected, get_class($e) . ': ' . $e->getMessage());
        }
        throw VerificationFailed::vectorMismatch("JWS attack check: $name", 0, $expected, 'acceptance');
    }
}
