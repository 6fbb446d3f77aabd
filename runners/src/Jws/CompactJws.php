<?php

declare(strict_types=1);

namespace PhpCryptoBench\Jws;

use JsonException;
use PhpCryptoBench\Exception\AlgorithmNotAllowed;
use PhpCryptoBench\Exception\ClaimRejected;
use PhpCryptoBench\Exception\MalformedToken;
use PhpCryptoBench\Exception\SignatureRejected;
use PhpCryptoBench\Exception\WeakKey;
use PhpCryptoBench\Harness\WallClock;

/**
 * JWS compact serialization (RFC 7515 section 7.1) with strict verification (RFC 8725): the
 * algorithm comes from the key, never from the token; `none`, a mismatched `alg`, unknown `crit`
 * extensions, non-canonical base64url and signatures of the wrong length are all refused.
 */
final class CompactJws
{
    /**
     * How many decoded headers verified() keeps. Every token of one issuer and key carries the same
     * header (its `alg`, `typ`, `kid`), so a verifier decodes the same few strings again and again;
     * kept by their exact encoded form, a header that differs in one character is decoded anew. Full,
     * the cache is emptied: a stream of distinct headers costs their decoding, as without a cache.
     */
    public const DECODED_HEADERS = 16;

    /** The longest header text kept (an issuer's `alg`, `typ` and `kid` take 36-120): a token's header is the sender's to size. */
    public const CACHED_HEADER_CHARS = 512;

    /** @var array<string, array<string, mixed>> decoded headers, keyed by their base64url text */
    private static array $headers = [];

    /**
     * @param array<string, mixed> $header extra header members; `alg` is always the key's
     * @throws WeakKey for a verification key
     * @throws AlgorithmNotAllowed for a header `alg` other than the key's (`none` included)
     */
    public static function sign(Key $key, string $payload, array $header = []): string
    {
        $alg = $key->algorithm->name();
        if (!$key->signs) {
            throw WeakKey::wrongType($alg, 'a signing key', 'a verification key');
        }
        if (array_key_exists('alg', $header) && $header['alg'] !== $alg) {
            // The key decides the algorithm (RFC 8725 section 3.1): a caller's other `alg` is a bug, not a wish.
            throw AlgorithmNotAllowed::callerHeader($alg, json_encode($header['alg']) ?: 'an unreadable value');
        }
        $header = ['alg' => $alg] + $header;
        $input = Base64Url::encode(self::json($header)) . '.' . Base64Url::encode($payload);
        return $input . '.' . Base64Url::encode($key->algorithm->sign($key, $input));
    }

    /** @param array<string, mixed> $claims */
    public static function signClaims(Key $key, array $claims, array $header = ['typ' => 'JWT']): string
    {
        return self::sign($key, self::json($claims), $header);
    }

    /**
     * @throws MalformedToken|AlgorithmNotAllowed|SignatureRejected
     */
    public static function verify(string $token, Key $key): VerifiedToken
    {
        [$header, $payload] = self::verified($token, $key);
        return new VerifiedToken($header, $payload);
    }

    /**
     * A JWT: a verified JWS whose payload is a claims set, with `exp` and `nbf` checked against the clock.
     *
     * @throws MalformedToken|AlgorithmNotAllowed|SignatureRejected|ClaimRejected
     */
    public static function verifyJwt(string $token, Key $key, WallClock $clock): VerifiedToken
    {
        [$header, $payload] = self::verified($token, $key);
        $claims = self::object($payload, false);
        $exp = self::numericDate($claims, 'exp');
        $nbf = self::numericDate($claims, 'nbf');
        $now = $clock->timestamp();
        if ($exp !== null && $now >= $exp) {
            throw ClaimRejected::expired($exp, $now);
        }
        if ($nbf !== null && $now < $nbf) {
            throw ClaimRejected::notYetValid($nbf, $now);
        }
        return new VerifiedToken($header, $payload, $claims);
    }

    /**
     * A time claim (RFC 7519 section 2, NumericDate; whole seconds here), or null when absent.
     *
     * @param array<string, mixed> $claims
     * @throws ClaimRejected when present but not an integer (null included)
     */
    private static function numericDate(array $claims, string $name): ?int
    {
        if (!array_key_exists($name, $claims)) {
            return null;
        }
        $value = $claims[$name];
        return is_int($value) ? $value : throw ClaimRejected::notANumber($name, get_debug_type($value));
    }

    /**
     * The header and payload of a token whose signature verified with $key, after every check.
     *
     * @return array{0: array<string, mixed>, 1: string}
     * @throws MalformedToken|AlgorithmNotAllowed|SignatureRejected
     */
    private static function verified(string $token, Key $key): array
    {
        $parts = explode('.', $token);
        if (count($parts) !== 3) {
            throw MalformedToken::partCount(count($parts));
        }
        [$encodedHeader, $encodedPayload, $encodedSignature] = $parts;
        $header = self::header($encodedHeader);
        $alg = $header['alg'] ?? null;
        if (!is_string($alg)) {
            throw AlgorithmNotAllowed::notAString(array_key_exists('alg', $header) ? get_debug_type($alg) : 'no alg member');
        }
        if ($alg === 'none') {
            throw AlgorithmNotAllowed::none();
        }
        $bound = $key->algorithm->name();
        if ($alg !== $bound) {
            throw AlgorithmNotAllowed::mismatch($bound, $alg);
        }
        if (array_key_exists('crit', $header)) {
            throw AlgorithmNotAllowed::criticalHeader(json_encode($header['crit']) ?: 'an unreadable value');
        }
        $payload = Base64Url::decode($encodedPayload, 'payload');
        $signature = Base64Url::decode($encodedSignature, 'signature');
        if (!$key->algorithm->verify($key, $encodedHeader . '.' . $encodedPayload, $signature)) {
            throw SignatureRejected::mismatch($alg);
        }
        return [$header, $payload];
    }

    /**
     * The header as a JSON object, from the cache when this exact text was decoded before. Only what
     * decoded to an object is kept; the checks of its members run on every token, since they depend on
     * the key it is verified with.
     *
     * @return array<string, mixed>
     * @throws MalformedToken
     */
    private static function header(string $encoded): array
    {
        if (isset(self::$headers[$encoded])) {
            return self::$headers[$encoded];
        }
        $header = self::object(Base64Url::decode($encoded, 'header'), true);
        if (strlen($encoded) > self::CACHED_HEADER_CHARS) {
            return $header;
        }
        if (count(self::$headers) >= self::DECODED_HEADERS) {
            self::$headers = [];
        }
        return self::$headers[$encoded] = $header;
    }

    /**
     * A JSON object, decoded once. Valid JSON whose first character (after white space) is `{` is
     * an object, so that character decides; anything else is decoded again, only to name its type.
     *
     * @param bool $header the token's header (else its claims): which part the error names
     * @return array<string, mixed>
     */
    private static function object(string $json, bool $header): array
    {
        try {
            $value = json_decode($json, true, 64, JSON_THROW_ON_ERROR | JSON_BIGINT_AS_STRING);
        } catch (JsonException) {
            throw self::notAnObject($header, 'text that is not JSON');
        }
        if (!is_array($value) || ltrim($json, " \t\n\r")[0] !== '{') {
            throw self::notAnObject($header, get_debug_type(json_decode($json, false, 64, JSON_BIGINT_AS_STRING)));
        }
        return $value;
    }

    private static function notAnObject(bool $header, string $found): MalformedToken
    {
        return $header ? MalformedToken::headerNotObject($found) : MalformedToken::claimsNotObject($found);
    }

    /** @param array<string, mixed> $value */
    private static function json(array $value): string
    {
        return json_encode($value, JSON_UNESCAPED_SLASHES | JSON_UNESCAPED_UNICODE | JSON_THROW_ON_ERROR);
    }
}
