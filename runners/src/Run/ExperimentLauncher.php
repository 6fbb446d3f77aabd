<?php

declare(strict_types=1);

namespace PhpCryptoBench\Run;

/** Runs one experiment in a child PHP process with the environment it needs. */
interface ExperimentLauncher
{
    /**
     * @param array<string, string> $environment
     * @param int $budgetNs what the experiment may spend (its share of the run's budget)
     * @param bool $native false: it leaves the native tools out (--no-native, Profile::$native)
     * @return array<string, mixed> the experiment's manifest entry
     */
    public function launch(string $experiment, string $profile, string $directory, bool $fakeClock, array $environment, int $budgetNs, bool $native = true): array;
}
