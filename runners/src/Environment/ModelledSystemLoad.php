<?php

declare(strict_types=1);

namespace PhpCryptoBench\Environment;

/**
 * The fake clock's machine: each reading is TICKS_PER_READING CPU ticks later, of which a fixed
 * share was idle and 0.5 % stolen and a fixed CPU time the run's own, at fixed load averages; no
 * governor or frequency is readable.
 * A fake run writes the same bytes everywhere, and its pages still show a noise record.
 */
final class ModelledSystemLoad implements SystemLoad
{
    public const TICKS_PER_READING = 1000;
    public const IDLE_PER_READING = 600;
    public const STEAL_PER_READING = 5;
    /** 3 s of 10 s of CPU time a reading (1000 ticks at 100 a second): of the 4 s busy, 1 s was others'. */
    public const OWN_CPU_NS_PER_READING = 3_000_000_000;

    private int $readings = 0;

    public function snapshot(): array
    {
        $this->readings++;
        return [
            'cpu_ticks' => [
                'total' => $this->readings * self::TICKS_PER_READING,
                'idle' => $this->readings * self::IDLE_PER_READING,
                'steal' => $this->readings * self::STEAL_PER_READING,
            ],
            'own_cpu_ns' => $this->readings * self::OWN_CPU_NS_PER_READING,
            'load_average' => [0.5, 0.4, 0.3],
            'governor' => null,
            'frequency_mhz' => null,
        ];
    }
}
