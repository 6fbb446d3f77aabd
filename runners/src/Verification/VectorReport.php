<?php

declare(strict_types=1);

namespace PhpCryptoBench\Verification;

/** What one vector file proved: how many vectors ran and passed, and why the rest were skipped. */
final class VectorReport
{
    /** @param array<string, int> $skipped reason => count */
    public function __construct(
        public readonly string $source,
        public readonly string $algorithm,
        public readonly int $passed,
        public readonly array $skipped,
    ) {
    }

    public function skippedCount(): int
    {
        return array_sum($this->skipped);
    }

    /** @return array{source: string, algorithm: string, passed: int, skipped: int, skip_reasons: object} */
    public function toArray(): array
    {
        return [
            'source' => $this->source,
            'algorithm' => $this->algorithm,
            'passed' => $this->passed,
            'skipped' => $this->skippedCount(),
            // An object even when empty: JSON readers expect a map here, not a list.
            'skip_reasons' => (object) $this->skipped,
        ];
    }
}
