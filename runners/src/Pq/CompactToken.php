<?php

declare(strict_types=1);

namespace PhpCryptoBench\Pq;

use OpenSSLAsymmetricKey;
use PhpCryptoBench\Exception\AlgorithmNotAllowed;
use PhpCryptoBench\Exception\MalformedToken;
use PhpCryptoBench\Exception\SignatureRejected;
use PhpCryptoBench\Jws\Base64Url;
use PhpCryptoBench\Jws\EcdsaSignature;

/**
 * A compact JWS (RFC 7515) signed through openssl_sign(), for any of the schemes compared here: the
 * header names the JOSE algorithm (for ML-DSA the names of the IETF's ML-DSA for JOSE and COSE:
 * "ML-DSA-44", "ML-DSA-65", "ML-DSA-87", signed with an empty context, which is what openssl_sign()
 * gives), the signature is the algorithm's own (ECDSA's as R‖S). It exists to measure what a token
 * weighs and to check that one verifies; the project's JWS code (runners/src/Jws) is what the JWT
 * page times.
 */
final class CompactToken
{
    /** The JWS Signing Input of a token of these claims: BASE64URL(header) . '.' . BASE64URL(claims). */
    public static function signingInput(PqScheme $scheme, array $claims): string
    {
        $header = ['alg' => $scheme->joseAlg, 'typ' => 'JWT'];
        return Base64Url::encode(self::json($header)) . '.' . Base64Url::encode(self::json($claims));
    }

    /** @throws SignatureRejected when OpenSSL refuses to sign */
    public static function sign(PqScheme $scheme, OpenSSLAsymmetricKey $private, array $claims): string
    {
        $input = self::signingInput($scheme, $claims);
        return $input . '.' . Base64Url::encode(self::fromOpenssl($scheme, self::signature($scheme, $private, $input)));
    }

    /** The raw signature openssl_sign() gives for $input (DER for ECDSA). */
    public static function signature(PqScheme $scheme, OpenSSLAsymmetricKey $private, string $input): string
    {
        $signature = '';
        if (!openssl_sign($input, $signature, $private, $scheme->digest)) {
            throw SignatureRejected::signingFailed($scheme->joseAlg, (string) openssl_error_string());
        }
        return $signature;
    }

    /**
     * The claims of a token that verifies with $public under this scheme's algorithm, and only that one.
     *
     * @return array<string, mixed>
     * @throws MalformedToken|AlgorithmNotAllowed|SignatureRejected
     */
    public static function verify(PqScheme $scheme, OpenSSLAsymmetricKey $public, string $token): array
    {
        $parts = explode('.', $token);
        if (count($parts) !== 3) {
            throw MalformedToken::partCount(count($parts));
        }
        $header = json_decode(Base64Url::decode($parts[0], 'header'), true);
        if (!is_array($header)) {
            throw MalformedToken::headerNotObject(substr($parts[0], 0, 40));
        }
        $alg = $header['alg'] ?? null;
        if (!is_string($alg)) {
            throw AlgorithmNotAllowed::missing();
        }
        if ($alg !== $scheme->joseAlg) {
            throw AlgorithmNotAllowed::mismatch($scheme->joseAlg, $alg);
        }
        $signature = Base64Url::decode($parts[2], 'signature');
        $expected = $scheme->expectedSignatureBytes() ?? ($scheme->coordinateBytes > 0 ? 2 * $scheme->coordinateBytes : null);
        if ($expected !== null && strlen($signature) !== $expected) {
            throw SignatureRejected::length($scheme->joseAlg, $expected, strlen($signature));
        }
        $der = $scheme->coordinateBytes > 0 ? EcdsaSignature::rawToDer($signature, $scheme->coordinateBytes, $scheme->joseAlg) : $signature;
        if (openssl_verify($parts[0] . '.' . $parts[1], $der, $public, $scheme->digest) !== 1) {
            while (openssl_error_string() !== false) {
                // a refused signature leaves OpenSSL's error queue filled: emptied, so the next call starts clean
            }
            throw SignatureRejected::mismatch($scheme->joseAlg);
        }
        $claims = json_decode(Base64Url::decode($parts[1], 'payload'), true);
        if (!is_array($claims)) {
            throw MalformedToken::claimsNotObject(substr($parts[1], 0, 40));
        }
        return $claims;
    }

    /** The signature as a JWS carries it: ECDSA's DER as R‖S, every other as it is. */
    public static function fromOpenssl(PqScheme $scheme, string $signature): string
    {
        return $scheme->coordinateBytes > 0 ? EcdsaSignature::derToRaw($signature, $scheme->coordinateBytes) : $signature;
    }

    private static function json(array $value): string
    {
        return json_encode($value, JSON_UNESCAPED_SLASHES | JSON_THROW_ON_ERROR);
    }
}
