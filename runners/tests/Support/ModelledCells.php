<?php

declare(strict_types=1);

namespace PhpCryptoBench\Tests\Support;

use PhpCryptoBench\Argon2\Argon2Cell;
use PhpCryptoBench\Argon2\CellMeasurement;
use PhpCryptoBench\Argon2\CellSampling;
use PhpCryptoBench\Argon2\CellShares;
use PhpCryptoBench\Argon2\HashCost;
use PhpCryptoBench\Argon2\SharedCells;
use PhpCryptoBench\Experiment\Experiment;
use PhpCryptoBench\Experiment\ExperimentContext;
use PhpCryptoBench\Experiment\ExperimentSetup;
use PhpCryptoBench\Experiment\MeasurementResult;
use PhpCryptoBench\Harness\FixedWork;
use PhpCryptoBench\Harness\Profile;
use PhpCryptoBench\Io\CsvTable;

/**
 * Argon2's grid as the argon2 experiment samples it (SharedCells, CellShares, HashCost,
 * CellMeasurement), in this process on the NoisyTimer's host (NoisyCellClock): every cell's least
 * hashes, and more within the experiment's share. Its fixed work is what HashCost projects from a probe
 * of this host: every cell's least hashes, each verified.
 */
final class ModelledCells implements Experiment, FixedWork
{
    /** @var array<string, int> samples per cell, once measured */
    public array $samplesPerCell = [];
    private ?HashCost $cost = null;

    /** @param list<Argon2Cell> $cells */
    public function __construct(
        private readonly string $name,
        private readonly array $cells,
        private readonly NoisyCellClock $clock,
    ) {
    }

    public static function create(ExperimentSetup $setup): self
    {
        return new self('cells', [Argon2Cell::of('password_hash', 'argon2id', 1024, 1, 1)], new NoisyCellClock(new NoisyTimer([], 0.0)));
    }

    public function name(): string
    {
        return $this->name;
    }

    public function description(): string
    {
        return 'modelled Argon2 cells';
    }

    public function unavailableReason(): ?string
    {
        return null;
    }

    public function verify(): array
    {
        return [];
    }

    public function caseCount(Profile $profile): int
    {
        return count($this->cells);
    }

    public function processEnvironment(): array
    {
        return [];
    }

    /** What HashCost projects from one probe cell, timed as the experiment times its probe (once: the run's budget asks first). */
    private function cost(): HashCost
    {
        if ($this->cost !== null) {
            return $this->cost;
        }
        $probe = Argon2Cell::of('password_hash', 'argon2id', HashCost::PROBE_MIB * 1024, 1, 1);
        $result = (new CellMeasurement($this->clock, $this->clock))->measure($probe, 1, 0);
        return $this->cost = HashCost::of($result['samples'][0]['wall_ns'] / (HashCost::PROBE_MIB * 1024), 0, 1.0);
    }

    public function fixedWorkNs(Profile $profile, bool $fakeClock): int
    {
        $cost = $this->cost();
        $least = CellSampling::forProfile($profile->name)->minSamples;
        return array_sum(array_map(static fn (Argon2Cell $cell): int => $cost->cellNs($cell, $least), $this->cells));
    }

    public function measure(ExperimentContext $context): MeasurementResult
    {
        $sampling = CellSampling::forProfile($context->profile->name);
        $cost = $this->cost();
        $minimums = array_map(static fn (Argon2Cell $cell): int => $cost->cellNs($cell, $sampling->minSamples), $this->cells);
        $shares = CellShares::of($context->sampler->budgetLeftNs(), $minimums, null, static fn (): int => $context->sampler->budgetLeftNs());
        $cells = new SharedCells($shares, $cost, $sampling);
        $measurement = new CellMeasurement($this->clock, $this->clock);
        $here = static fn (Argon2Cell $cell, int $least, int $budgetNs, int $most, float $target): array => $measurement->measure($cell, $least, $budgetNs, $most, $target);
        $table = new CsvTable(['interface', 'variant', 'memory_kib', 'threads', 'time_cost', 'sample', 'wall_ns', 'status']);
        foreach ($this->cells as $cell) {
            $result = $cells->measure($cell, $here);
            $this->samplesPerCell[implode('/', $cell->key())] = count($result['samples']);
            foreach ($result['samples'] as $i => $sample) {
                $table->add($cell->key() + ['sample' => $i, 'wall_ns' => $sample['wall_ns'], 'status' => 'ok']);
            }
        }
        $table->writeTo($context->outputDirectory . '/' . $this->name . '.csv');
        $rows = array_map(static fn (array $row): array => array_map('strval', $row), $table->records());
        return new MeasurementResult([$this->name . '.csv'], [], null, $sampling->tally($rows));
    }
}
