<?php

declare(strict_types=1);

namespace PhpCryptoBench\Environment;

use Closure;

/**
 * Whether the machine is busy as a run starts: two readings of the CPU counters WINDOW_SECONDS
 * apart, while the runner itself waits. Load is a confounder, not noise (two quick runs taken while
 * other processes kept both cores busy flagged 30 % of cases against quiet runs): the runner warns
 * before it measures anything and the manifest records the reading, so that a comparison can name
 * the run as loaded before it judges any case.
 */
final class LoadAtStart
{
    public const WINDOW_SECONDS = 2.0;
    /**
     * Other processes' share of all cores' time above which the machine is called busy: on a 2-core
     * VM, one core's worth for half the window. The build warns at the same share
     * (scripts/phpcb/presentation/precision.py: OTHERS_WARNING; a test holds the two together).
     */
    public const BUSY_SHARE = 0.25;
    /** /proc/stat counts in USER_HZ ticks, 100 a second on every architecture Linux runs on. */
    private const TICKS_PER_SECOND = 100;

    /**
     * @param Closure(float): void $wait sleeps for the given seconds (nothing under the fake clock)
     * @return array{window_s: float, others_share: float|null, steal_share: float|null, busy: bool}
     */
    public static function measure(SystemLoad $load, Closure $wait): array
    {
        $before = $load->snapshot();
        $wait(self::WINDOW_SECONDS);
        $after = $load->snapshot();
        return self::between($before, $after);
    }

    /**
     * @param array<string, mixed> $before a SystemLoad snapshot
     * @param array<string, mixed> $after a later one
     * @return array{window_s: float, others_share: float|null, steal_share: float|null, busy: bool}
     */
    public static function between(array $before, array $after): array
    {
        $others = $steal = null;
        $ticksBefore = $before['cpu_ticks'] ?? null;
        $ticksAfter = $after['cpu_ticks'] ?? null;
        if (is_array($ticksBefore) && is_array($ticksAfter)) {
            $total = $ticksAfter['total'] - $ticksBefore['total'];
            if ($total > 0) {
                $busy = 1 - ($ticksAfter['idle'] - $ticksBefore['idle']) / $total;
                $own = ((int) ($after['own_cpu_ns'] ?? 0) - (int) ($before['own_cpu_ns'] ?? 0)) / 1e9 * self::TICKS_PER_SECOND / $total;
                $others = round(max(0.0, $busy - $own), 4);
                $steal = round(($ticksAfter['steal'] - $ticksBefore['steal']) / $total, 4);
            }
        }
        return [
            'window_s' => self::WINDOW_SECONDS,
            'others_share' => $others,
            'steal_share' => $steal,
            'busy' => $others !== null && $others >= self::BUSY_SHARE,
        ];
    }

    /** @param array{others_share: float|null, busy: bool} $reading */
    public static function warning(array $reading): ?string
    {
        if (!$reading['busy']) {
            return null;
        }
        return sprintf(
            'WARNING: the machine is busy: other processes used %.0f %% of all cores\' time in the %.0f s before the run (busy from %.0f %%). '
            . 'Its numbers will carry that load, and comparisons will name this run as loaded (manifest: system.at_start). Stop what else runs and start again for numbers of this machine.',
            100 * (float) $reading['others_share'],
            self::WINDOW_SECONDS,
            100 * self::BUSY_SHARE,
        );
    }
}
