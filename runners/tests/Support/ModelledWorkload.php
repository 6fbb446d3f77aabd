<?php

declare(strict_types=1);

namespace PhpCryptoBench\Tests\Support;

use PhpCryptoBench\Experiment\Experiment;
use PhpCryptoBench\Experiment\ExperimentContext;
use PhpCryptoBench\Experiment\ExperimentSetup;
use PhpCryptoBench\Experiment\MeasurementResult;
use PhpCryptoBench\Harness\Interleaving;
use PhpCryptoBench\Harness\Profile;
use PhpCryptoBench\Io\CsvTable;

/**
 * An experiment of modelled cases for budget tests: each case a CountingCase of an algorithm (the
 * NoisyTimer's model and noise for it) and a payload; the cases of one payload are a group sampled in
 * rotation, as the real experiments' are. Every sample is written, as theirs are.
 */
final class ModelledWorkload implements Experiment
{
    /** @param list<array{0: string, 1: int}> $cases algorithm and payload bytes */
    public function __construct(
        private readonly string $name,
        private readonly array $cases,
    ) {
    }

    public static function create(ExperimentSetup $setup): self
    {
        return new self('modelled', [['counting', 16]]);
    }

    public function name(): string
    {
        return $this->name;
    }

    public function description(): string
    {
        return 'modelled cases';
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
        return count($this->cases);
    }

    public function processEnvironment(): array
    {
        return [];
    }

    public function measure(ExperimentContext $context): MeasurementResult
    {
        $cases = array_map(static fn (array $c): CountingCase => new CountingCase($c[1], null, $c[0]), $this->cases);
        $samples = $context->sampler->measureGrouped($cases, new Interleaving($this->name . '.csv', ['payload_bytes']));
        $table = new CsvTable(['algorithm', 'payload_bytes', 'sample', 'iterations', 'elapsed_ns']);
        foreach ($cases as $i => $case) {
            foreach ($samples[$i] as $sample) {
                $table->add($case->key() + $sample->columns());
            }
        }
        $table->writeTo($context->outputDirectory . '/' . $this->name . '.csv');
        return new MeasurementResult([$this->name . '.csv']);
    }
}
