<?php

declare(strict_types=1);

namespace PhpCryptoBench\EcKeygen;

use PhpCryptoBench\Exception\KeyOperationFailed;

/**
 * Proves a generated key works before its generation time counts: it signs a message whose
 * signature verifies with its public key, or, for a scheme that cannot sign, agrees on the same
 * secret with a fresh peer from both sides. (That a wrong signature fails is checked once per
 * scheme, by CurveProbe and by the verify case, not for every key: it would double the cost.)
 */
final class KeyCheck
{
    private const MESSAGE = 'phpcrypto-bench key check';

    /** Null when the key works, else what went wrong. */
    public static function mismatch(KeyScheme $scheme, mixed $key): ?string
    {
        try {
            if (in_array(KeyScheme::SIGN, $scheme->operations(), true)) {
                return self::signatureMismatch($scheme, $key);
            }
            if (in_array(KeyScheme::DERIVE, $scheme->operations(), true)) {
                return self::agreementMismatch($scheme, $key);
            }
        } catch (KeyOperationFailed $e) {
            return $e->getMessage();
        }
        return 'the scheme can neither sign nor derive, so its keys cannot be checked';
    }

    private static function signatureMismatch(KeyScheme $scheme, mixed $key): ?string
    {
        $signature = $scheme->sign($key, self::MESSAGE);
        $public = $scheme->publicKey($key);
        return $scheme->verify($public, self::MESSAGE, $signature) ? null : 'expected its signature to verify with its public key, it did not';
    }

    private static function agreementMismatch(KeyScheme $scheme, mixed $key): ?string
    {
        $peer = $scheme->generate();
        $ours = $scheme->derive($key, $scheme->publicKey($peer));
        $theirs = $scheme->derive($peer, $scheme->publicKey($key));
        if ($ours !== $theirs) {
            return sprintf('expected both sides to derive the same secret, got %d and %d bytes that differ', strlen($ours), strlen($theirs));
        }
        return null;
    }
}
