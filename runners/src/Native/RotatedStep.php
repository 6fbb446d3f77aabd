<?php

declare(strict_types=1);

namespace PhpCryptoBench\Native;

use Closure;
use PhpCryptoBench\Exception\InvalidInterleaving;
use PhpCryptoBench\Harness\BenchCase;
use PhpCryptoBench\Harness\Interleaving;
use PhpCryptoBench\Harness\Profile;
use PhpCryptoBench\Harness\Sampler;
use PhpCryptoBench\Io\CsvTable;

/**
 * A round's PHP measurement of cases that are compared sample by sample (e.g. the raw primitive and
 * the JWS layer of one operation): measured in rotation (Sampler::measureRotation), so both see the
 * machine in the same state turn after turn. Samples taken in the same turn share their sample
 * number, which runs on across rounds; the manifest records the pairing for the table.
 */
final class RotatedStep implements RoundStep
{
    private int $nextSample = 0;

    /**
     * @param list<BenchCase> $cases at least two
     * @param Closure(BenchCase): array<string, bool|int|float|string> $columns a row's columns besides round, sample, iterations and elapsed_ns
     */
    public function __construct(
        private readonly Sampler $sampler,
        private readonly Profile $profile,
        private readonly array $cases,
        private readonly CsvTable $table,
        private readonly Interleaving $interleaving,
        private readonly Closure $columns,
    ) {
        if (count($cases) < 2) {
            throw InvalidInterleaving::tooFewToRotate(count($cases));
        }
    }

    public function label(): string
    {
        return implode(' ↔ ', array_map(static fn (BenchCase $case): string => $case->label(), $this->cases));
    }

    public function estimatedSeconds(): float
    {
        return $this->profile->estimatedSeconds(count($this->cases));
    }

    public function measure(int $round): void
    {
        $samples = $this->sampler->measureRotation($this->cases, $this->interleaving, $this->nextSample === 0);
        $turns = 0;
        foreach ($this->cases as $i => $case) {
            $columns = ($this->columns)($case);
            foreach ($samples[$i] as $sample) {
                $this->table->add($columns + ['round' => $round, 'sample' => $this->nextSample + $sample->index, 'iterations' => $sample->iterations, 'elapsed_ns' => $sample->elapsedNs]);
                $turns = max($turns, $sample->index + 1);
            }
        }
        $this->nextSample += $turns;
    }

    public function gap(): ?string
    {
        return null;
    }
}
