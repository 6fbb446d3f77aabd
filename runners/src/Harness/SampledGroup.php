<?php

declare(strict_types=1);

namespace PhpCryptoBench\Harness;

/**
 * One group of cases a Sampler measures in rotation, between its calls: its rounds so far, the next
 * round's number, and the time its sampling took on the timer's clock (which Sampler::measureGrouped
 * spends in two stretches: every group's floor, then the rest, cheapest group first).
 */
final class SampledGroup
{
    public int $nextRound = 0;
    public int $tookNs = 0;

    /**
     * @param list<BenchCase> $cases
     * @param (\Closure(BenchCase): void)|null $measured called for each case as it stops (progress)
     */
    public function __construct(
        public readonly array $cases,
        public readonly ?Interleaving $interleaving,
        public readonly GroupRounds $rounds,
        public readonly ?\Closure $measured,
    ) {
    }
}
