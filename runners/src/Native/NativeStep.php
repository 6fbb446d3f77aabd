<?php

declare(strict_types=1);

namespace PhpCryptoBench\Native;

use PhpCryptoBench\Exception\NativeSpeedFailed;
use PhpCryptoBench\Io\CsvTable;

/**
 * A round's native measurement of one primitive, written to the experiment's native table
 * (columns: primitive, operation, block_bytes, round, iterations, elapsed_ns, command, tool_version).
 */
final class NativeStep implements UnsampledStep
{
    private ?string $gap = null;

    public function __construct(
        private readonly NativeSpeed $native,
        public readonly NativePrimitive $primitive,
        private readonly CsvTable $table,
    ) {
    }

    public function label(): string
    {
        return 'openssl speed ' . implode(' ', $this->primitive->arguments());
    }

    public function estimatedSeconds(): float
    {
        return $this->primitive->speedOperations($this->native->toolVersion()) * OpensslSpeedCommand::ROUND_SECONDS;
    }

    /** `openssl speed` runs each operation for its seconds, however fast the host: the same everywhere. */
    public function fixedNs(): int
    {
        return (int) round($this->estimatedSeconds() * 1e9);
    }

    public function measure(int $round): void
    {
        try {
            $measurements = $this->native->measure($this->primitive);
        } catch (NativeSpeedFailed $e) {
            $this->gap = 'native ' . $this->primitive->name . ': ' . $e->getMessage();
            return;
        }
        foreach ($measurements as $measurement) {
            $this->table->add($measurement->toRow() + ['round' => $round]);
        }
    }

    public function gap(): ?string
    {
        return $this->gap;
    }
}
