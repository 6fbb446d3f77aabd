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
 * A round's PHP measurement: one Sampler::measureRotation() (warm-up, calibration, samples, every
 * run verified) of one case, or of cases compared sample by sample (e.g. the raw primitive and the
 * JWS layer of one operation) taken in rotation, so that both see the machine in the same state turn
 * after turn. Each sample is written with its round and a sample number that runs on across rounds;
 * samples taken in the same turn share it, and the manifest records that pairing for the table.
 */
final class SampledStep implements RoundStep
{
    private int $nextSample = 0;

    /**
     * @param list<BenchCase> $cases
     * @param Closure(BenchCase): array<string, bool|int|float|string> $columns a row's columns besides round, sample, iterations and elapsed_ns
     */
    private function __construct(
        private readonly Sampler $sampler,
        private readonly Profile $profile,
        private readonly array $cases,
        private readonly CsvTable $table,
        private readonly ?Interleaving $rotation,
        private readonly Closure $columns,
    ) {
    }

    /** @param Closure(BenchCase): array<string, bool|int|float|string> $columns */
    public static function of(Sampler $sampler, Profile $profile, BenchCase $case, CsvTable $table, Closure $columns): self
    {
        return new self($sampler, $profile, [$case], $table, null, $columns);
    }

    /**
     * @param list<BenchCase> $cases at least two, paired by sample number
     * @param Closure(BenchCase): array<string, bool|int|float|string> $columns
     */
    public static function rotated(Sampler $sampler, Profile $profile, array $cases, CsvTable $table, Interleaving $rotation, Closure $columns): self
    {
        if (count($cases) < 2) {
            throw InvalidInterleaving::tooFewToRotate(count($cases));
        }
        return new self($sampler, $profile, array_values($cases), $table, $rotation, $columns);
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
        // The tally counts cases, as the tables list them: cases measured in several rounds once.
        $samples = $this->sampler->measureRotation($this->cases, $this->rotation, $this->nextSample === 0);
        $turns = 0;
        foreach ($this->cases as $i => $case) {
            $columns = ($this->columns)($case);
            foreach ($samples[$i] as $sample) {
                $this->table->add($columns + ['round' => $round] + $sample->columns($this->nextSample));
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
