<?php

declare(strict_types=1);

namespace PhpCryptoBench\Experiment;

use PhpCryptoBench\Exception\UsageError;

final class ExperimentRegistry
{
    /** @var array<string, Experiment> */
    private array $experiments = [];

    public function __construct(Experiment ...$experiments)
    {
        foreach ($experiments as $experiment) {
            $this->experiments[$experiment->name()] = $experiment;
        }
    }

    /** @return list<string> */
    public function names(): array
    {
        return array_keys($this->experiments);
    }

    public function get(string $name): Experiment
    {
        return $this->experiments[$name] ?? throw UsageError::unknownExperiment($name, $this->names());
    }

    /**
     * @param list<string>|null $only
     * @return list<Experiment>
     */
    public function select(?array $only): array
    {
        if ($only === null) {
            return array_values($this->experiments);
        }
        return array_map(fn (string $name): Experiment => $this->get($name), $only);
    }
}
