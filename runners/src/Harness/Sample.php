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

    /**
     * The columns every table of samples shares, numbered from $firstIndex (a case measured over
     * several rounds continues its numbering).
     *
     * @return array{sample: int, iterations: int, elapsed_ns: int}
     */
    public function columns(int $firstIndex = 0): array
    {
        return ['sample' => $firstIndex + $this->index, 'iterations' => $this->iterations, 'elapsed_ns' => $this->elapsedNs];
    }

    /** @return array{sample: int, iterations: int, elapsed_ns: int, minor_faults: int} the columns, with the page faults */
    public function columnsWithFaults(): array
    {
        return $this->columns() + ['minor_faults' => $this->minorFaults];
    }
}
