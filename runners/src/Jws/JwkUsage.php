<?php

declare(strict_types=1);

namespace PhpCryptoBench\Jws;

use PhpCryptoBench\Exception\KeyUseRefused;

/**
 * What a JWK declares it may be used for (RFC 7517 sections 4.2-4.4), checked before its key is
 * bound to an algorithm: a key published for encryption, or with key_ops that leave out the
 * operation, or for another algorithm, is refused rather than trusted for signatures.
 */
final class JwkUsage
{
    public const SIGN = 'sign';
    public const VERIFY = 'verify';
    private const SIGNATURE_OPS = [self::SIGN, self::VERIFY];

    /**
     * @param array<string, mixed> $jwk
     * @param self::SIGN|self::VERIFY $operation
     * @throws KeyUseRefused
     */
    public static function check(array $jwk, string $operation, Algorithm $algorithm): void
    {
        $use = self::optionalString($jwk, 'use');
        if ($use !== null && $use !== 'sig') {
            throw KeyUseRefused::use($operation, $use);
        }
        $ops = self::keyOps($jwk);
        if ($ops !== null && !in_array($operation, $ops, true)) {
            throw KeyUseRefused::keyOps($operation, self::json($ops));
        }
        if ($use !== null && $ops !== null && array_diff($ops, self::SIGNATURE_OPS) !== []) {
            throw KeyUseRefused::inconsistent(self::json($ops));
        }
        $alg = self::optionalString($jwk, 'alg');
        if ($alg !== null && $alg !== $algorithm->name()) {
            throw KeyUseRefused::algorithm($algorithm->name(), $alg);
        }
    }

    /**
     * @param array<string, mixed> $jwk
     * @return list<string>|null
     */
    private static function keyOps(array $jwk): ?array
    {
        if (!array_key_exists('key_ops', $jwk)) {
            return null;
        }
        $ops = $jwk['key_ops'];
        if (!is_array($ops) || !array_is_list($ops) || array_filter($ops, 'is_string') !== $ops) {
            throw KeyUseRefused::malformed('key_ops', 'an array of strings', self::json($ops));
        }
        if (count(array_unique($ops)) !== count($ops)) {
            throw KeyUseRefused::malformed('key_ops', 'no duplicate values', self::json($ops));
        }
        return $ops;
    }

    /** @param array<string, mixed> $jwk */
    private static function optionalString(array $jwk, string $member): ?string
    {
        if (!array_key_exists($member, $jwk)) {
            return null;
        }
        return is_string($jwk[$member]) ? $jwk[$member] : throw KeyUseRefused::malformed($member, 'a string', self::json($jwk[$member]));
    }

    /** The value as the message shows it: JSON (bytes that are not UTF-8 as U+FFFD), or its type when JSON has none (INF). */
    private static function json(mixed $value): string
    {
        return json_encode($value, JSON_UNESCAPED_SLASHES | JSON_INVALID_UTF8_SUBSTITUTE) ?: get_debug_type($value);
    }
}
