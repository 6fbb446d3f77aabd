<?php

declare(strict_types=1);

namespace PhpCryptoBench\Native;

use PhpCryptoBench\Harness\JitterCycle;

/**
 * Fake-clock mode: a deterministic native limit. bytesPerSecond() (the single figures of native.csv):
 * 1 GB/s at 16 KiB and above, half that below. measure() (the rounds): 20 ns per block plus 50 GB/s,
 * and 200 to 800 ns per public-key signature or derivation (from a hash of the name), half that per
 * verification; both under the fake clock's 1 µs per PHP call, so that a fake page shows PHP slower
 * than native, as a real one does. Each round's figure is moved by the fake clock's jitter cycle, so
 * that PHP/native ratios over rounds have real confidence intervals, the same on every machine.
 */
final class FixedNativeSpeed implements NativeSpeed
{
    /** What it says its tool is: the fake clock's runs project their rounds by it, the same on every stack. */
    public const TOOL_VERSION = 'fake';

    /** Operations per fake measurement. */
    public const OPERATIONS = 1000;
    private const BASE_PUBLIC_KEY_NS = 200;
    private const BLOCK_NS = 20;
    private const PICOSECONDS_PER_BYTE = 20;

    /** @var array<string, int> measurements so far, per primitive and operation */
    private array $calls = [];

    public function __construct(private readonly JitterCycle $jitter = new JitterCycle())
    {
    }

    public function bytesPerSecond(string $algorithm, int $blockBytes): ?float
    {
        return $blockBytes >= 16384 ? 1.0e9 : 0.5e9;
    }

    public function measure(NativePrimitive $primitive): array
    {
        $command = implode(' ', OpensslSpeedCommand::command('openssl', $primitive));
        $measurements = [];
        foreach ($primitive->operations as $operation) {
            $id = $primitive->name . '/' . $primitive->blockBytes . '/' . $operation;
            $call = $this->calls[$id] ?? 0;
            $this->calls[$id] = $call + 1;
            $elapsed = $this->jitter->apply(self::OPERATIONS * $this->nsPerOperation($primitive, $operation), $call);
            $measurements[] = new NativeMeasurement($primitive->name, $operation, $primitive->blockBytes, self::OPERATIONS, $elapsed, $command, $this->toolVersion());
        }
        return $measurements;
    }

    /** The model of one operation, before the jitter. */
    public function nsPerOperation(NativePrimitive $primitive, string $operation): int
    {
        if ($primitive->onBlocks()) {
            return self::BLOCK_NS + intdiv($primitive->blockBytes * self::PICOSECONDS_PER_BYTE, 1000);
        }
        $base = self::BASE_PUBLIC_KEY_NS * (1 + crc32($primitive->name) % 4);
        return $operation === NativePrimitive::VERIFY ? intdiv($base, 2) : $base;
    }

    public function toolVersion(): string
    {
        return self::TOOL_VERSION;
    }
}
