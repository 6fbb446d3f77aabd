<?php

declare(strict_types=1);

namespace PhpCryptoBench\Symmetric;

use PhpCryptoBench\Exception\VerificationFailed;

/** Two engines given the same key, IV and plaintext must produce the same ciphertext. */
final class CrossEngineCheck
{
    /** Empty, one byte, one short of a block, a block, one past it, and an odd kilobyte. */
    public const LENGTHS = [0, 1, 15, 16, 17, 1000];

    /** @return int how many plaintexts matched */
    public function run(SymmetricCipher $a, SymmetricCipher $b): int
    {
        $key = random_bytes(intdiv($a->keyBits(), 8));
        $iv = $a->ivBytes() > 0 ? random_bytes($a->ivBytes()) : '';
        foreach (self::LENGTHS as $length) {
            $plaintext = $length > 0 ? random_bytes($length) : '';
            $left = $a->encrypt($plaintext, $key, $iv);
            $right = $b->encrypt($plaintext, $key, $iv);
            if ($left !== $right) {
                throw VerificationFailed::enginesDisagree(
                    sprintf('%s %s-%s vs %s %s', $a->engine(), $a->cipher(), $a->mode(), $b->engine(), $b->cipher()),
                    $length,
                    strlen($left),
                    strlen($right),
                );
            }
        }
        return count(self::LENGTHS);
    }
}
