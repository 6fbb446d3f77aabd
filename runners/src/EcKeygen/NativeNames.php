<?php

declare(strict_types=1);

namespace PhpCryptoBench\EcKeygen;

/**
 * The names `openssl speed` (3.0) gives the schemes this experiment measures in PHP: ecdsa<name> and
 * ecdh<name> for the named curves it has, ed25519, ecdhx25519, rsa<bits>. Curves it lacks have no
 * native counterpart.
 */
final class NativeNames
{
    private const CURVES = [
        'secp160r1' => 'p160', 'prime192v1' => 'p192', 'secp224r1' => 'p224', 'prime256v1' => 'p256', 'secp384r1' => 'p384', 'secp521r1' => 'p521',
        'sect163k1' => 'k163', 'sect233k1' => 'k233', 'sect283k1' => 'k283', 'sect409k1' => 'k409', 'sect571k1' => 'k571',
        'sect163r2' => 'b163', 'sect233r1' => 'b233', 'sect283r1' => 'b283', 'sect409r1' => 'b409', 'sect571r1' => 'b571',
        'brainpoolP256r1' => 'brp256r1', 'brainpoolP256t1' => 'brp256t1', 'brainpoolP384r1' => 'brp384r1', 'brainpoolP384t1' => 'brp384t1', 'brainpoolP512r1' => 'brp512r1', 'brainpoolP512t1' => 'brp512t1',
    ];
    /** The quick profile compares the schemes a reader picks from (SP 800-186's P-256, RFC 7748/8032, RSA-2048). */
    public const QUICK = ['prime256v1', 'X25519', 'Ed25519', 'RSA-2048'];

    /** The speed name for one operation of a scheme (named as the CSV's `curve` column), or null. */
    public static function of(string $scheme, string $operation): ?string
    {
        if (preg_match('/^RSA-([0-9]+)$/', $scheme, $match) === 1) {
            return $operation === KeyScheme::DERIVE ? null : 'rsa' . $match[1];
        }
        return match (true) {
            $scheme === 'Ed25519' => $operation === KeyScheme::DERIVE ? null : 'ed25519',
            $scheme === 'X25519' => $operation === KeyScheme::DERIVE ? 'ecdhx25519' : null,
            !isset(self::CURVES[$scheme]) => null,
            default => ($operation === KeyScheme::DERIVE ? 'ecdh' : 'ecdsa') . self::CURVES[$scheme],
        };
    }
}
