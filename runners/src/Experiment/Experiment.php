<?php

declare(strict_types=1);

namespace PhpCryptoBench\Experiment;

use PhpCryptoBench\Exception\VerificationFailed;
use PhpCryptoBench\Harness\Profile;

/**
 * One experiment: verified first, then measured into its CSV files. The runner finds every class
 * runners/src/<Namespace>/<Name>Experiment.php that implements this (ExperimentRegistry::discover).
 */
interface Experiment
{
    /** How the registry builds it: everything it needs comes from the setup. */
    public static function create(ExperimentSetup $setup): self;

    public function name(): string;

    public function description(): string;

    /** Why this experiment cannot run on this PHP at all, or null. */
    public function unavailableReason(): ?string;

    /**
     * Known answers, round trips, tamper checks. Nothing is timed unless this passes.
     *
     * @return array<string, mixed> what was checked, for the manifest
     * @throws VerificationFailed
     */
    public function verify(): array;

    /**
     * The cases known before measuring starts, for the start-up estimate. An experiment that
     * finds more while measuring (symmetric probes every OpenSSL cipher first) counts only these.
     */
    public function caseCount(Profile $profile): int;

    /**
     * Environment variables the experiment must start its PHP process with (e.g. OPENSSL_CONF,
     * which OpenSSL reads once, at start-up). When the current process lacks them, the runner
     * runs this experiment in a child process that has them. Empty: runs in-process.
     *
     * @return array<string, string>
     */
    public function processEnvironment(): array;

    /** Measures every case and writes the experiment's files atomically. */
    public function measure(ExperimentContext $context): MeasurementResult;
}
