<?php

declare(strict_types=1);

namespace PhpCryptoBench\Tests\Support;

use PhpCryptoBench\Native\UnsampledStep;

/**
 * A modelled `openssl speed` step of a round: it takes its time on every host alike (openssl speed
 * runs for its seconds however fast the host is), on the NoisyTimer's clock.
 */
final class ModelledNativeStep implements UnsampledStep
{
    public int $measured = 0;

    public function __construct(
        private readonly NoisyTimer $clock,
        private readonly int $ns,
    ) {
    }

    public function label(): string
    {
        return 'modelled openssl speed';
    }

    public function estimatedSeconds(): float
    {
        return $this->ns / 1e9;
    }

    public function fixedNs(): int
    {
        return $this->ns;
    }

    public function measure(int $round): void
    {
        $this->measured++;
        $this->clock->advance($this->ns);
    }

    public function gap(): ?string
    {
        return null;
    }
}
