<?php

declare(strict_types=1);

namespace PhpCryptoBench\EcKeygen;

/**
 * Security strength in bits, from NIST SP 800-57 Part 1 Rev. 5, table 2 ("comparable strengths").
 * For ECC the table's f is the bit length of the group order n, which is what OpenSSL reports as
 * the key's size; for RSA it is the modulus length k.
 */
final class SecurityLevel
{
    /** Minimum f => strength: f = 160-223 gives 80, 224-255 gives 112, and so on. */
    private const ECC = [512 => 256, 384 => 192, 256 => 128, 224 => 112, 160 => 80];
    /** Minimum k => strength. */
    private const RSA = [15360 => 256, 7680 => 192, 3072 => 128, 2048 => 112, 1024 => 80];

    /**
     * Under 160 bits the table has no row: Pollard's rho needs about 2^(f/2) group operations, so
     * the strength is f/2, below anything NIST allows.
     */
    public static function forEcc(int $orderBits): int
    {
        return self::lookup(self::ECC, $orderBits) ?? intdiv($orderBits, 2);
    }

    /** Under 1024 bits RSA has no strength worth a number in the table: 0. */
    public static function forRsa(int $modulusBits): int
    {
        return self::lookup(self::RSA, $modulusBits) ?? 0;
    }

    /** @param array<int, int> $table */
    private static function lookup(array $table, int $bits): ?int
    {
        foreach ($table as $minimum => $strength) {
            if ($bits >= $minimum) {
                return $strength;
            }
        }
        return null;
    }
}
