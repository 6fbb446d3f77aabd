<?php

declare(strict_types=1);

namespace PhpCryptoBench\Environment;

/** What else the machine was doing, read before and after each experiment and the run. */
interface SystemLoad
{
    /**
     * CPU time counters of the machine (all, idle, stolen; in clock ticks, 100 a second), the CPU
     * time the run itself has used (ns), load averages, the frequency governor and clock; null where
     * they cannot be read.
     *
     * @return array{cpu_ticks: array{total: int, idle: int, steal: int}|null, own_cpu_ns: int|null, load_average: list<float>|null, governor: string|null, frequency_mhz: float|null}
     */
    public function snapshot(): array;
}
