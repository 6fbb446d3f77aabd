<?php

declare(strict_types=1);

namespace PhpCryptoBench\Tests\Support;

use PhpCryptoBench\Experiment\Experiment;
use PhpCryptoBench\Experiment\ExperimentContext;
use PhpCryptoBench\Experiment\ExperimentSetup;
use PhpCryptoBench\Experiment\MeasurementResult;
use PhpCryptoBench\Harness\BenchCase;
use PhpCryptoBench\Harness\FixedWork;
use PhpCryptoBench\Harness\Interleaving;
use PhpCryptoBench\Harness\Profile;
use PhpCryptoBench\Io\CsvTable;
use PhpCryptoBench\Native\InterleavedRounds;
use PhpCryptoBench\Native\RoundStep;
use PhpCryptoBench\Native\SampledStep;

/**
 * An experiment of modelled cases for budget tests: each case a CountingCase of an algorithm (the
 * NoisyTimer's model and noise for it) and a payload; the cases of one payload are a group sampled in
 * rotation, as the real experiments' are. Every sample is written, as theirs are.
 *
 * Given the NoisyTimer, it also does the work the real experiments do besides sampling: a verification
 * before timing ($verificationNs on the model's host, so three times as long on a host three times
 * slower), and rounds against a modelled `openssl speed` ($nativeStepNs a step, the same on any host),
 * each beside a PHP case sampled in the round, as the real rounds are; it says so (FixedWork).
 */
final class ModelledWorkload implements Experiment, FixedWork
{
    /** @var array<string, int> samples per case (its algorithm and payload), once measured */
    public array $samplesPerCase = [];

    /** @param list<array{0: string, 1: int}> $cases algorithm and payload bytes */
    public function __construct(
        private readonly string $name,
        private readonly array $cases,
        private readonly ?NoisyTimer $clock = null,
        private readonly int $verificationNs = 0,
        private readonly int $nativeSteps = 0,
        private readonly int $nativeStepNs = 0,
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
        $this->clock?->advanceModelled($this->verificationNs);
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

    /**
     * The rounds' modelled `openssl speed`, and every case's least samples as one timed operation of it
     * on this host projects them (Profile::leastNs), as the real experiments project their slow cases.
     */
    public function fixedWorkNs(Profile $profile, bool $fakeClock): int
    {
        $least = 0;
        foreach ($this->clock === null ? [] : $this->cases as [$algorithm, $payload]) {
            $before = $this->clock->now();
            $this->clock->time(new CountingCase($payload, null, $algorithm), 1);
            $least += $profile->leastNs($this->clock->now() - $before);
        }
        return InterleavedRounds::forProfile($profile)->rounds * $this->nativeSteps * $this->nativeStepNs + $least;
    }

    public function measure(ExperimentContext $context): MeasurementResult
    {
        $files = [$this->name . '.csv'];
        $rounds = InterleavedRounds::forProfile($context->profile);
        $roundsTable = new CsvTable(['algorithm', 'payload_bytes', 'round', 'sample', 'iterations', 'elapsed_ns']);
        $steps = $this->roundSteps($context, $roundsTable);
        $rounds->reserve($context->sampler->budget(), $steps);
        $cases = array_map(static fn (array $c): CountingCase => new CountingCase($c[1], null, $c[0]), $this->cases);
        $samples = $context->sampler->measureGrouped($cases, new Interleaving($this->name . '.csv', ['payload_bytes']));
        $table = new CsvTable(['algorithm', 'payload_bytes', 'sample', 'iterations', 'elapsed_ns']);
        foreach ($cases as $i => $case) {
            $this->samplesPerCase[implode('/', $case->key())] = count($samples[$i]);
            foreach ($samples[$i] as $sample) {
                $table->add($case->key() + $sample->columns());
            }
        }
        $table->writeTo($context->outputDirectory . '/' . $this->name . '.csv');
        if ($steps !== []) {
            $rounds->run($this->name, $steps, $context->progress, $context->sampler->budget());
            foreach ($roundsTable->records() as $row) {
                $key = $row['algorithm'] . '/' . $row['payload_bytes'];
                $this->samplesPerCase[$key] = ($this->samplesPerCase[$key] ?? 0) + 1;
            }
            $roundsTable->writeTo($context->outputDirectory . '/' . $this->name . '_rounds.csv');
            $files[] = $this->name . '_rounds.csv';
        }
        return new MeasurementResult($files);
    }

    /**
     * Per native step: the modelled `openssl speed`, then the PHP side, a case of the first case's
     * algorithm (its model) at a payload of its own.
     *
     * @return list<RoundStep>
     */
    private function roundSteps(ExperimentContext $context, CsvTable $table): array
    {
        if ($this->clock === null || $this->nativeSteps === 0) {
            return [];
        }
        $steps = [];
        for ($i = 0; $i < $this->nativeSteps; $i++) {
            $steps[] = new ModelledNativeStep($this->clock, $this->nativeStepNs);
            $case = new CountingCase(100_000 + $i, null, $this->cases[0][0]);
            $steps[] = SampledStep::of($context->sampler, $context->profile, $case, $table, static fn (BenchCase $c): array => $c->key());
        }
        return $steps;
    }
}
