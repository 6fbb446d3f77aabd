<?php

declare(strict_types=1);

namespace PhpCryptoBench\Harness;

/**
 * An experiment that says what it spends besides its cases' sampling, work that does not shrink with
 * the budget: its `openssl speed` rounds (whole seconds of wall time on any host), Argon2's rounds and
 * minimum hashes. RunBudget gives it that time before it shares the rest by case count, so that the
 * experiment's sampling is not sized as if that work were free, nor takes it from the experiments after it.
 */
interface FixedWork
{
    /**
     * About what that work takes in $profile on this host, in nanoseconds on the run's clock (0: none).
     *
     * @param bool $fakeClock the run's clock is modelled: project modelled time
     */
    public function fixedWorkNs(Profile $profile, bool $fakeClock): int;
}
