<?php

declare(strict_types=1);

namespace PhpCryptoBench\Aead;

use PhpCryptoBench\Harness\BenchCase;
use PhpCryptoBench\Harness\Profile;
use PhpCryptoBench\Harness\Sampler;
use PhpCryptoBench\Io\CsvTable;
use PhpCryptoBench\Native\NativePrimitive;
use PhpCryptoBench\Native\NativeSpeed;
use PhpCryptoBench\Native\NativeStep;
use PhpCryptoBench\Native\RoundStep;
use PhpCryptoBench\Native\SampledStep;

/**
 * PHP's openssl_encrypt against `openssl speed -evp`, in interleaved rounds: per round, cipher and
 * size, the native figure, then PHP's samples, so that the native figure is the median of its rounds
 * and meets the machine PHP's samples met (a single native figure taken apart once read 0.40 GB/s on a
 * busy machine against 2.9 GB/s idle, and PHP "122 %" of it). The AEAD experiment takes every cipher
 * OpenSSL measures at 1 KiB and 16 KiB; `make bench-fidelity` (runners/fidelity.php) takes AES-256-GCM
 * and AES-256-CCM at 16 KiB, more rounds, three times, to check that the ratio's CI is narrow and stable.
 */
final class FidelityRounds
{
    public const CSV = 'aead_rounds.csv';
    public const NATIVE_CSV = 'aead_native.csv';
    public const CIPHERS = ['aes-256-gcm', 'aes-256-ccm'];
    public const BLOCK_BYTES = 16384;

    /**
     * @param list<string> $ciphers
     * @param list<int> $blocks
     * @return list<RoundStep>
     */
    public static function steps(Sampler $sampler, Profile $profile, NativeSpeed $native, CsvTable $php, CsvTable $nativeTable, array $ciphers = self::CIPHERS, array $blocks = [self::BLOCK_BYTES]): array
    {
        $steps = [];
        foreach (array_values(array_intersect($ciphers, openssl_get_cipher_methods())) as $cipher) {
            foreach ($blocks as $block) {
                $steps[] = new NativeStep($native, NativePrimitive::cipher($cipher, $block), $nativeTable);
                $columns = static fn (BenchCase $case): array => ['algorithm' => $cipher, 'operation' => 'encrypt', 'payload_bytes' => $case->bytesPerIteration(), 'native' => $cipher];
                $steps[] = SampledStep::of($sampler, $profile, new EncryptCase(new OpensslAead($cipher), $block, 0), $php, $columns);
            }
        }
        return $steps;
    }
}
