<?php

declare(strict_types=1);

namespace PhpCryptoBench\Aead;

use PhpCryptoBench\Harness\BenchCase;
use PhpCryptoBench\Harness\Interleaving;
use PhpCryptoBench\Harness\Sampler;
use PhpCryptoBench\Io\CsvTable;

/**
 * What the harness costs: AES-256-GCM encryption as the aead table times it (HarnessCase) against
 * a bare openssl_encrypt loop (BareEncryptLoop), sampled in rotation at each payload size, so
 * the build can give their ratio with a paired CI (goal: within 5 % of 1).
 */
final class HarnessOverhead
{
    public const CSV = 'harness_overhead.csv';
    public const CIPHER = 'aes-256-gcm';
    /** 16 B, where the per-call costs are everything; 16 KiB, where PHP is set beside `openssl speed`. */
    public const PAYLOADS = [16, 16384];
    /** Rounds at least: the result is their ratio, whose CI narrows with the pairs, not either median. */
    public const MINIMUM_ROUNDS = 150;

    public static function available(): bool
    {
        return in_array(self::CIPHER, openssl_get_cipher_methods(), true);
    }

    /** @return list<BenchCase> */
    public static function cases(): array
    {
        $cases = [];
        foreach (self::PAYLOADS as $payload) {
            $cases[] = new HarnessCase(new EncryptCase(new OpensslAead(self::CIPHER), $payload, 0));
            $cases[] = new BareEncryptLoop(self::CIPHER, $payload);
        }
        return $cases;
    }

    /** @param (callable(BenchCase): void)|null $measured */
    public static function measureInto(CsvTable $table, Sampler $sampler, ?callable $measured = null): void
    {
        $cases = self::cases();
        $samples = $sampler->measureGrouped($cases, new Interleaving(self::CSV, ['algorithm', 'payload_bytes']), $measured, [], self::MINIMUM_ROUNDS);
        foreach ($cases as $index => $case) {
            foreach ($samples[$index] as $sample) {
                $table->add($case->key() + $sample->columns());
            }
        }
    }
}
