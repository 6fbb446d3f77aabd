<?php

declare(strict_types=1);

namespace PhpCryptoBench\Harness;

/**
 * What an experiment's slow cases (an RSA key generation, a CFB1 cipher's 200 KiB round trip) take at
 * least past what every case takes (Profile::leastNs of nothing: a fast case, calibrated to a
 * sample's minimum length on any host), projected from one timed operation of each on this host: the
 * part of its least work that the budget's share by case count does not foresee (FixedWork).
 */
final class SlowCases
{
    /** @param list<float> $operationNs one operation of each slow case, as timed here */
    public static function extraNs(Profile $profile, array $operationNs): int
    {
        $fast = $profile->leastNs(0.0);
        return array_sum(array_map(static fn (float $ns): int => max(0, $profile->leastNs($ns) - $fast), $operationNs));
    }

    /**
     * $operation on the wall clock, in nanoseconds: the median of $runs runs, so that one run a
     * neighbour preempted (or an RSA key whose prime search was long) does not set the projection.
     */
    public static function time(\Closure $operation, int $runs = 3): float
    {
        $times = [];
        for ($run = 0; $run < max(1, $runs); $run++) {
            $started = hrtime(true);
            $operation();
            $times[] = hrtime(true) - $started;
        }
        sort($times);
        return (float) $times[intdiv(count($times), 2)];
    }
}
