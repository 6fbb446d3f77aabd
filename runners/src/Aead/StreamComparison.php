<?php

declare(strict_types=1);

namespace PhpCryptoBench\Aead;

use PhpCryptoBench\Harness\BenchCase;
use PhpCryptoBench\Harness\Interleaving;
use PhpCryptoBench\Harness\Sampler;
use PhpCryptoBench\Io\CsvTable;

/**
 * Large payloads: secretstream in 64 KiB chunks (SecretstreamCase) against one XChaCha20-Poly1305
 * call on the whole payload (OneCallCase), sampled in rotation at each operation and payload, so the
 * build can give their ratio with a paired CI. 512 KiB, the largest payload PHP's allocator serves from
 * its heap, and 10 MiB, the seed's size, where one call maps its output afresh.
 */
final class StreamComparison
{
    public const CSV = 'aead_stream.csv';
    public const PAYLOADS = [524288, 10485760];
    public const OPERATIONS = ['encrypt', 'decrypt'];
    public const INTERLEAVED_BY = ['operation', 'payload_bytes'];

    public static function available(): bool
    {
        return Secretstream::available();
    }

    public static function caseCount(): int
    {
        return self::available() ? 2 * count(self::PAYLOADS) * count(self::OPERATIONS) : 0;
    }

    /** @param (callable(BenchCase): void)|null $measured */
    public static function measureInto(CsvTable $table, Sampler $sampler, ?callable $measured = null): void
    {
        $interleaving = new Interleaving(self::CSV, self::INTERLEAVED_BY);
        foreach (self::PAYLOADS as $payload) {
            foreach (self::OPERATIONS as $operation) {
                $makers = [
                    static fn (): BenchCase => new SecretstreamCase($operation, $payload),
                    static fn (): BenchCase => OneCallCase::of($operation, $payload),
                ];
                // Each case holds its payload, a sealed copy and its last output.
                foreach ($sampler->measureMade($makers, 3 * $payload, $interleaving, $measured) as [$case, $samples]) {
                    foreach ($samples as $sample) {
                        $table->add($case->key() + $sample->columnsWithFaults());
                    }
                }
            }
        }
    }
}
