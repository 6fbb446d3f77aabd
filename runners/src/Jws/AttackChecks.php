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
        $checks = [
            'alg "none" with an empty signature' => [AlgorithmNotAllowed::class, fn () => CompactJws::verify(Base64Url::encode('{"alg":"none"}') . '.' . $payload . '.', $verifier)],
            'HS256 signed with the RSA public key as its secret (alg confusion)' => [AlgorithmNotAllowed::class, fn () => CompactJws::verify($hsWithPublicKey, $rsVerifier)],
            'an ES256 key on P-384' => [WeakKey::class, fn () => Key::forVerification($es256, openssl_pkey_new(['private_key_type' => OPENSSL_KEYTYPE_EC, 'curve_name' => 'secp384r1']))],
            'an RSA key under 2048 bits' => [WeakKey::class, fn () => Key::forVerification(Algorithms::named('RS256'), Jwk::import(['kty' => 'RSA', 'n' => Base64Url::encode(random_bytes(127) . "\x01"), 'e' => 'AQAB']))],
            'a PEM public key as an HMAC secret' => [WeakKey::class, fn () => Key::forVerification(Algorithms::named('HS256'), $rsaPublicPem)],
            'a signature one byte short' => [SignatureRejected::class, fn () => CompactJws::verify("$header.$payload." . Base64Url::encode(substr(Base64Url::decode($signature), 1)), $verifier)],
            'a DER signature where R‖S belongs' => [SignatureRejected::class, fn () => CompactJws::verify("$header.$payload." . Base64Url::encode(EcdsaSignature::rawToDer(Base64Url::decode($signature), 32, 'ES256')), $verifier)],
            'a changed payload' => [SignatureRejected::class, fn () => CompactJws::verify($header . '.' . Base64Url::encode('{"sub":"mallory"}') . '.' . $signature, $verifier)],
            'padding in base64url' => [MalformedToken::class, fn () => CompactJws::verify("$header.$payload.$signature=", $verifier)],
            'a header that is a JSON list' => [MalformedToken::class, fn () => CompactJws::verify(Base64Url::encode('["ES256"]') . ".$payload.$signature", $verifier)],
        ];
        foreach ($checks as $name => [$expected, $attempt]) {
            self::expectRefusal($name, $expected, $attempt);
        }
        return array_keys($checks);
    }

    /** @param class-string $expected */
    private static function expectRefusal(string $name, string $expected, Closure $attempt): void
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
