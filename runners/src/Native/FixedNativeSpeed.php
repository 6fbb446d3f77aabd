<?php

declare(strict_types=1);

namespace PhpCryptoBench\Native;

/** Fake-clock mode: a deterministic native limit (1 GB/s at 16 KiB, half that at 1 KiB). */
final class FixedNativeSpeed implements NativeSpeed
{
    public function bytesPerSecond(string $algorithm, int $blockBytes): ?float
    {
        return $blockBytes >= 16384 ? 1.0e9 : 0.5e9;
    }

    public function toolVersion(): string
    {
        return 'fake';
    }
}
