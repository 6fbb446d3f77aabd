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
    /**
     * @param array<string, array{class-string, string, Closure(): mixed}>|null $checks self::checks() unless given (a test's)
     * @return list<string> the attacks refused
     * @throws VerificationFailed at the first attack not refused as it must be
     */
    public static function run(?array $checks = null): array
    {
        $checks ??= self::checks();
        foreach ($checks as $name => [$expected, $because, $attempt]) {
            self::expectRefusal($name, $expected, $because, $attempt);
        }
        return array_keys($checks);
    }

    /**
     * Each attack: the exception that must refuse it, why (a refusal for another reason would hide a
     * hole), and the attempt.
     *
     * @return array<string, array{class-string, string, Closure(): mixed}>
     */
    public static function checks(): array
    {
        $ecKey = openssl_pkey_new(['private_key_type' => OPENSSL_KEYTYPE_EC, 'curve_name' => 'prime256v1']);
        $es256 = Algorithms::named('ES256');
        $verifier = Key::forVerification($es256, Jwk::import(Jwk::publicOf($ecKey)));
        $token = CompactJws::sign(Key::forSigning($es256, $ecKey), '{"sub":"alice"}');
        [$header, $payload, $signature] = explode('.', $token);
        $rsaPublic = Jwk::import(['kty' => 'RSA', 'n' => KnownAnswers::RFC7520_RSA['n'], 'e' => 'AQAB']);
        $rsaPublicPem = openssl_pkey_get_details($rsaPublic)['key'];
        $hsWithPublicKey = Base64Url::encode('{"alg":"HS256"}') . '.' . $payload;
        $hsWithPublicKey .= '.' . Base64Url::encode(hash_hmac('sha256', $hsWithPublicKey, $rsaPublicPem, true));
        $rsVerifier = Key::forVerification(Algorithms::named('RS256'), $rsaPublic);
        [$psVerifier, $pssSaltTooLong, $pssWithPkcs1] = self::ps256Forgeries();
        $forged = 'expected a signature that verifies with the key';
        return [
            'alg "none" with an empty signature' => [AlgorithmNotAllowed::class, 'got "none"', fn () => CompactJws::verify(Base64Url::encode('{"alg":"none"}') . '.' . $payload . '.', $verifier)],
            'HS256 signed with the RSA public key as its secret (alg confusion)' => [AlgorithmNotAllowed::class, 'expected "RS256", the algorithm bound to this key, got "HS256"', fn () => CompactJws::verify($hsWithPublicKey, $rsVerifier)],
            'an ES256 key on P-384' => [WeakKey::class, 'a key on secp384r1', fn () => Key::forVerification($es256, openssl_pkey_new(['private_key_type' => OPENSSL_KEYTYPE_EC, 'curve_name' => 'secp384r1']))],
            // 1024 bits exactly, its top bit set (a random first byte made it 1017 to 1024 bits).
            'an RSA key under 2048 bits' => [WeakKey::class, 'got 1024', fn () => Key::forVerification(Algorithms::named('RS256'), Jwk::import(['kty' => 'RSA', 'n' => Base64Url::encode("\x80" . str_repeat("\x5b", 127)), 'e' => 'AQAB']))],
            'a PEM public key as an HMAC secret' => [WeakKey::class, 'PEM text', fn () => Key::forVerification(Algorithms::named('HS256'), $rsaPublicPem)],
            'a signature one byte short' => [SignatureRejected::class, 'expected a 64-byte signature, got 63 bytes', fn () => CompactJws::verify("$header.$payload." . Base64Url::encode(substr(Base64Url::decode($signature), 1)), $verifier)],
            // DER makes 70 to 72 bytes of R and S, fewer when one has leading zeros.
            'a DER signature where R‖S belongs' => [SignatureRejected::class, 'ES256: expected a 64-byte signature, got', fn () => CompactJws::verify("$header.$payload." . Base64Url::encode(EcdsaSignature::rawToDer(Base64Url::decode($signature), 32, 'ES256')), $verifier)],
            'a PS256 signature with a salt longer than the hash' => [SignatureRejected::class, $forged, fn () => CompactJws::verify($pssSaltTooLong, $psVerifier)],
            'a PS256 signature with PKCS#1 v1.5 padding' => [SignatureRejected::class, $forged, fn () => CompactJws::verify($pssWithPkcs1, $psVerifier)],
            'a changed payload' => [SignatureRejected::class, $forged, fn () => CompactJws::verify($header . '.' . Base64Url::encode('{"sub":"mallory"}') . '.' . $signature, $verifier)],
            'padding in base64url' => [MalformedToken::class, 'signature: expected canonical unpadded base64url', fn () => CompactJws::verify("$header.$payload.$signature=", $verifier)],
            'a header that is a JSON list' => [MalformedToken::class, 'header: expected a JSON object, got array', fn () => CompactJws::verify(Base64Url::encode('["ES256"]') . ".$payload.$signature", $verifier)],
        ];
    }

    /**
     * A PS256 verification key, and two tokens under its header that must not verify: signed with a
     * 64-byte salt (RFC 7518 section 3.5 fixes 32), and with RS256's PKCS#1 v1.5 padding.
     *
     * @return array{0: Key, 1: string, 2: string}
     */
    private static function ps256Forgeries(): array
    {
        $rsa = openssl_pkey_new(['private_key_type' => OPENSSL_KEYTYPE_RSA, 'private_key_bits' => 2048])
            ?: throw VerificationFailed::operationFailed('JWS attack check: PS256', 'expected an RSA-2048 key, OpenSSL refused');
        $input = Base64Url::encode('{"alg":"PS256"}') . '.' . Base64Url::encode('{"sub":"alice"}');
        $longSalt = '';
        $pkcs1 = '';
        openssl_sign($input, $longSalt, RsaPssKey::of(openssl_pkey_get_details($rsa)['rsa'], 'PS256', 'sha256', 64), 'sha256');
        openssl_sign($input, $pkcs1, $rsa, 'sha256');
        $verifier = Key::forVerification(Algorithms::named('PS256'), Jwk::import(Jwk::publicOf($rsa)));
        return [$verifier, "$input." . Base64Url::encode($longSalt), "$input." . Base64Url::encode($pkcs1)];
    }

    /**
     * @param class-string $expected the exception, whose message must hold $because
     * @throws VerificationFailed when $attempt is accepted, or refused otherwise
     */
    public static function expectRefusal(string $name, string $expected, string $because, Closure $attempt): void
    {
        try {
            $attempt();
        } catch (\Throwable $e) {
            if ($e instanceof $expected && str_contains($e->getMessage(), $because)) {
                return;
            }
            throw VerificationFailed::vectorMismatch("JWS attack check: $name", 0, "$expected ($because)", get_class($e) . ': ' . $e->getMessage());
        }
        throw VerificationFailed::vectorMismatch("JWS attack check: $name", 0, "$expected ($because)", 'acceptance');
    }
}
