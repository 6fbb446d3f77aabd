<?php

declare(strict_types=1);

namespace PhpCryptoBench\Native;

/**
 * A round's step whose time the Sampler does not control: `openssl speed` (whole seconds on any host),
 * an Argon2 cell process. InterleavedRounds reserves its time in the experiment's budget before the
 * cases are sampled, so that the sampling leaves room for it.
 */
interface UnsampledStep extends RoundStep
{
    /** About what one measurement takes on this host, in nanoseconds. */
    public function fixedNs(): int;
}
