<?php

declare(strict_types=1);

namespace PhpCryptoBench\Native;

/** The native limit: what OpenSSL's own tool reaches for the same primitive on this machine. */
interface NativeSpeed
{
    /** Bytes per second, or null when the tool cannot measure this algorithm. */
    public function bytesPerSecond(string $algorithm, int $blockBytes): ?float;

    public function toolVersion(): string;
}
