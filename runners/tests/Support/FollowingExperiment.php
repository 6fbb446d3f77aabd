<?php

declare(strict_types=1);

namespace PhpCryptoBench\Tests\Support;

use ArrayObject;
use PhpCryptoBench\Experiment\ExperimentContext;
use PhpCryptoBench\Experiment\ExperimentSetup;
use PhpCryptoBench\Experiment\FollowsEarlierExperiments;
use PhpCryptoBench\Experiment\MeasurementResult;
use PhpCryptoBench\Harness\Profile;

/**
 * A FollowsEarlierExperiments stub: what it was told comes before it, as its projection (caseCount)
 * and its measuring saw it, logged in $seen, which its copies share.
 */
final class FollowingExperiment implements FollowsEarlierExperiments
{
    /**
     * @param ArrayObject<int, array{string, list<string>}> $seen
     * @param list<string> $before
     */
    public function __construct(
        public readonly ArrayObject $seen = new ArrayObject(),
        private readonly array $before = [],
    ) {
    }

    public static function create(ExperimentSetup $setup): self
    {
        return new self();
    }

    public function after(array $names): self
    {
        return new self($this->seen, $names);
    }

    public function name(): string
    {
        return 'follower';
    }

    public function description(): string
    {
        return 'a stub that follows others';
    }

    public function unavailableReason(): ?string
    {
        return null;
    }

    public function verify(): array
    {
        return [];
    }

    public function processEnvironment(): array
    {
        return [];
    }

    public function caseCount(Profile $profile): int
    {
        $this->seen[] = ['caseCount', $this->before];
        return 1;
    }

    public function measure(ExperimentContext $context): MeasurementResult
    {
        $this->seen[] = ['measure', $this->before];
        return (new StubExperiment($this->name()))->measure($context);
    }
}
