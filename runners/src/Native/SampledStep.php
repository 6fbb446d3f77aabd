<?php

declare(strict_types=1);

namespace PhpCryptoBench\Native;

use Closure;
use PhpCryptoBench\Harness\BenchCase;
use PhpCryptoBench\Harness\Profile;
use PhpCryptoBench\Harness\Sample;
use PhpCryptoBench\Harness\Sampler;
use PhpCryptoBench\Io\CsvTable;

/**
 * A round's PHP measurement of one case: one Sampler::measure() (warm-up, calibration, samples,
 * every run verified), each sample written with its round and a sample number that runs on
 * across rounds (so that the case and the sample number identify a row).
 */
final class SampledStep implements RoundStep
{
    private int $nextSample = 0;

    /** @param Closure(BenchCase): array<string, bool|int|float|string> $columns the row's columns besides round, sample, iterations and elapsed_ns */
    public function __construct(
        private readonly Sampler $sampler,
        private readonly Profile $profile,
        public readonly BenchCase $case,
        private readonly CsvTable $table,
        private readonly Closure $columns,
    ) {
    }

    public function label(): string
    {
        return $this->case->label();
    }

    public function estimatedSeconds(): float
    {
        return $this->profile->estimatedSeconds(1);
    }

    public function measure(int $round): void
    {
        $columns = ($this->columns)($this->case);
        // The tally counts cases, as the tables list them: a case measured in several rounds once.
        foreach ($this->sampler->measure($this->case, 0, $this->nextSample === 0) as $sample) {
            $this->table->add(self::row($columns, $round, $this->nextSample++, $sample));
        }
    }

    /**
     * @param array<string, bool|int|float|string> $columns
     * @return array<string, bool|int|float|string>
     */
    private static function row(array $columns, int $round, int $index, Sample $sample): array
    {
        return $columns + ['round' => $round, 'sample' => $index, 'iterations' => $sample->iterations, 'elapsed_ns' => $sample->elapsedNs];
    }

    public function gap(): ?string
    {
        return null;
    }
}
