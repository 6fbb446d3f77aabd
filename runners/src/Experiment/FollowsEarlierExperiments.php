<?php

declare(strict_types=1);

namespace PhpCryptoBench\Experiment;

/**
 * An experiment that leaves to an experiment before it in the same run a measurement both could take
 * (one quantity, one number: docs/methodology.md). The runner says which experiments come before it
 * before projecting the run's work (caseCount, FixedWork), so that the projection leaves that
 * measurement out too. What the experiment then leaves out follows what the run directory holds when it
 * measures, not this list: an experiment before it may have failed, or measured less than it could.
 */
interface FollowsEarlierExperiments extends Experiment
{
    /**
     * The same experiment, told what comes before it.
     *
     * @param list<string> $names the experiments this run recorded as measured (ok or partial) before
     *                            it started, and those it runs before this one
     */
    public function after(array $names): self;
}
