<?php

declare(strict_types=1);

namespace PhpCryptoBench\Harness;

/** One timing of a case: `iterations` operations in `elapsedNs`, and the minor page faults they took. */
final class Sample
{
    public function __construct(
        public readonly int $index,
        public readonly int $iterations,
        public readonly int $elapsedNs,
        // A fault per 4 KiB of output means PHP mapped fresh memory for it: the kernel's cost, not the cipher's.
        public readonly int $minorFaults = 0,
    ) {
    }
}
