<?php

declare(strict_types=1);

namespace PhpCryptoBench\Tests\Support;

use PhpCryptoBench\Exception\VerificationFailed;
use PhpCryptoBench\Experiment\Experiment;
use PhpCryptoBench\Experiment\ExperimentContext;
use PhpCryptoBench\Experiment\ExperimentSetup;
use PhpCryptoBench\Experiment\MeasurementResult;
use PhpCryptoBench\Harness\Profile;
use PhpCryptoBench\Io\CsvTable;

final class StubExperiment implements Experiment
{
    public int $measured = 0;
    public ?Profile $profileSeen = null;
    public ?int $coresSeen = null;

    public function __construct(
        private readonly string $name = 'stub',
        private readonly bool $verificationFails = false,
        private readonly ?string $unavailable = null,
        /** @var array<string, mixed>|null what the processes it measured in report of themselves */
        private readonly ?array $measuredBy = null,
        /** @var array<string, string> what processEnvironment() declares (a child process's) */
        private readonly array $environment = [],
    ) {
    }

    public static function create(ExperimentSetup $setup): self
    {
        return new self();
    }

    public function name(): string
    {
        return $this->name;
    }

    public function description(): string
    {
        return 'a stub';
    }

    public function unavailableReason(): ?string
    {
        return $this->unavailable;
    }

    public function verify(): array
    {
        if ($this->verificationFails) {
            throw VerificationFailed::vectorMismatch('stub.json', 7, 'rejection', 'a decrypted plaintext');
        }
        return ['vectors_passed' => 3];
    }

    public function processEnvironment(): array
    {
        return $this->environment;
    }

    public function caseCount(Profile $profile): int
    {
        return 1;
    }

    public function measure(ExperimentContext $context): MeasurementResult
    {
        $this->measured++;
        $this->profileSeen = $context->profile;
        $this->coresSeen = $context->cores;
        $table = new CsvTable(['sample', 'iterations', 'elapsed_ns']);
        foreach ($context->sampler->measure(new CountingCase()) as $sample) {
            $table->add(['sample' => $sample->index, 'iterations' => $sample->iterations, 'elapsed_ns' => $sample->elapsedNs]);
        }
        $table->writeTo($context->outputDirectory . '/' . $this->name . '.csv');
        return new MeasurementResult([$this->name . '.csv'], [], $this->measuredBy);
    }
}
