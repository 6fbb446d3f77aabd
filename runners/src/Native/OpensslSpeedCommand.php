<?php

declare(strict_types=1);

namespace PhpCryptoBench\Native;

/** `openssl speed -elapsed -evp ALG -bytes N`: wall-clock throughput of the EVP interface. */
final class OpensslSpeedCommand implements NativeSpeed
{
    public function __construct(
        private readonly int $seconds,
        private readonly string $binary = 'openssl',
    ) {
    }

    public function bytesPerSecond(string $algorithm, int $blockBytes): ?float
    {
        $command = sprintf(
            '%s speed -elapsed -seconds %d -evp %s -bytes %d 2>/dev/null',
            escapeshellcmd($this->binary),
            $this->seconds,
            escapeshellarg($algorithm),
            $blockBytes,
        );
        return self::parse((string) shell_exec($command), $blockBytes);
    }

    /** The last table line reads "<NAME> <n>k": thousands of bytes per second. */
    public static function parse(string $output, int $blockBytes): ?float
    {
        $lines = array_values(array_filter(array_map('trim', explode("\n", $output))));
        $last = $lines === [] ? '' : $lines[count($lines) - 1];
        if (preg_match('/\s([0-9]+(?:\.[0-9]+)?)k$/', $last, $m) !== 1 || $blockBytes <= 0) {
            return null;
        }
        return (float) $m[1] * 1000.0;
    }

    public function toolVersion(): string
    {
        return trim((string) shell_exec(escapeshellcmd($this->binary) . ' version 2>/dev/null')) ?: 'unknown';
    }
}
