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
 * PHP's openssl_encrypt against `openssl speed -evp` for AES-256-GCM and AES-256-CCM at 16 KiB, in
 * interleaved rounds: per round and cipher, the native figure, then PHP's samples. The AEAD
 * experiment takes these rounds in every run; `make bench-fidelity` (runners/fidelity.php) takes
 * more of them, three times, to check that the ratio's CI is narrow and stable.
 */
final class FidelityRounds
{
    public const CSV = 'aead_rounds.csv';
    public const NATIVE_CSV = 'aead_native.csv';
    public const CIPHERS = ['aes-256-gcm', 'aes-256-ccm'];
    public const BLOCK_BYTES = 16384;

    /** @return list<RoundStep> */
    public static function steps(Sampler $sampler, Profile $profile, NativeSpeed $native, CsvTable $php, CsvTable $nativeTable): array
    {
        $steps = [];
        foreach (array_intersect(self::CIPHERS, openssl_get_cipher_methods()) as $cipher) {
            $steps[] = new NativeStep($native, NativePrimitive::cipher($cipher, self::BLOCK_BYTES), $nativeTable);
            $columns = static fn (BenchCase $case): array => ['algorithm' => $cipher, 'operation' => 'encrypt', 'payload_bytes' => $case->bytesPerIteration(), 'native' => $cipher];
            $steps[] = SampledStep::of($sampler, $profile, new EncryptCase(new OpensslAead($cipher), self::BLOCK_BYTES, 0), $php, $columns);
        }
        return $steps;
    }
}
