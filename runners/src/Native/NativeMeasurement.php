<?php

declare(strict_types=1);

namespace PhpCryptoBench\Native;

/** One result of the native tool: `operations` of one kind done in `elapsedNs`, by `command`. */
final class NativeMeasurement
{
    public function __construct(
        public readonly string $primitive,
        public readonly string $operation,
        public readonly int $blockBytes,
        public readonly int $operations,
        public readonly int $elapsedNs,
        public readonly string $command,
        public readonly string $toolVersion,
    ) {
    }

    /** @return array{primitive: string, operation: string, block_bytes: int, iterations: int, elapsed_ns: int, command: string, tool_version: string} */
    public function toRow(): array
    {
        return [
            'primitive' => $this->primitive,
            'operation' => $this->operation,
            'block_bytes' => $this->blockBytes,
            'iterations' => $this->operations,
            'elapsed_ns' => $this->elapsedNs,
            'command' => $this->command,
            'tool_version' => $this->toolVersion,
        ];
    }
}
