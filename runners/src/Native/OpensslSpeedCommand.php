<?php

declare(strict_types=1);

namespace PhpCryptoBench\Native;

use PhpCryptoBench\Exception\NativeSpeedFailed;
use PhpCryptoBench\Run\ParentWatch;

/** `openssl speed -elapsed`: wall-clock throughput of the EVP interface, and public-key operations per second. */
final class OpensslSpeedCommand implements NativeSpeed
{
    /**
     * A round's measurement runs for the shortest time openssl speed takes (whole seconds): more
     * rounds, each short, follow the machine's drift better than a few long ones.
     */
    public const ROUND_SECONDS = 1;

    private ?string $version = null;

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

    public function measure(NativePrimitive $primitive): array
    {
        $command = self::command($this->binary, $primitive);
        $output = $this->run($command);
        return self::measurements($primitive, implode(' ', $command), $output, $this->toolVersion());
    }

    /** @return list<string> the command line, without a shell */
    public static function command(string $binary, NativePrimitive $primitive): array
    {
        return [$binary, 'speed', '-elapsed', '-mr', '-seconds', (string) self::ROUND_SECONDS, ...$primitive->arguments()];
    }

    /**
     * The measurements in $output, one per operation of $primitive.
     *
     * @return list<NativeMeasurement>
     * @throws NativeSpeedFailed
     */
    public static function measurements(NativePrimitive $primitive, string $command, string $output, string $version): array
    {
        $found = [];
        foreach (OpensslSpeedOutput::results($output, $primitive) as $result) {
            if (!in_array($result['operation'], $primitive->operations, true)) {
                continue;
            }
            if (isset($found[$result['operation']])) {
                throw NativeSpeedFailed::repeatedOperation($command, $result['operation']);
            }
            $found[$result['operation']] = new NativeMeasurement($primitive->name, $result['operation'], $primitive->blockBytes, $result['count'], (int) round($result['seconds'] * 1e9), $command, $version);
        }
        $missing = array_diff($primitive->operations, array_keys($found));
        if ($missing !== []) {
            throw NativeSpeedFailed::missingOperations($command, $primitive->operations, self::firstError($output, array_keys($found)));
        }
        return array_map(static fn (string $operation): NativeMeasurement => $found[$operation], $primitive->operations);
    }

    /** @param list<string> $found */
    private static function firstError(string $output, array $found): string
    {
        foreach (preg_split('/\R/', $output) ?: [] as $line) {
            $line = trim($line);
            if ($line !== '' && !str_starts_with($line, '+')) {
                return ($found === [] ? '' : 'only ' . implode(', ', $found) . '; ') . '"' . mb_strimwidth($line, 0, 160, '…') . '"';
            }
        }
        return $found === [] ? '' : 'only ' . implode(', ', $found);
    }

    /** @param list<string> $command */
    private function run(array $command): string
    {
        $process = @proc_open(ParentWatch::guard($command), [0 => ['pipe', 'r'], 1 => ['pipe', 'w'], 2 => ['redirect', 1]], $pipes);
        if (!is_resource($process)) {
            throw NativeSpeedFailed::cannotStart($this->binary);
        }
        fclose($pipes[0]);
        $output = (string) stream_get_contents($pipes[1]);
        fclose($pipes[1]);
        proc_close($process);
        return $output;
    }

    public function toolVersion(): string
    {
        return $this->version ??= trim((string) shell_exec(escapeshellcmd($this->binary) . ' version 2>/dev/null')) ?: 'unknown';
    }
}
