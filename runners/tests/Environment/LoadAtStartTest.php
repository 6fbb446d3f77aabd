<?php

declare(strict_types=1);

namespace PhpCryptoBench\Tests\Environment;

use PhpCryptoBench\Environment\LoadAtStart;
use PhpCryptoBench\Environment\ModelledSystemLoad;
use PHPUnit\Framework\TestCase;

final class LoadAtStartTest extends TestCase
{
    /** @return array<string, mixed> a reading of $total ticks, $idle idle, $steal stolen, $ownNs of the run's own CPU time */
    private static function reading(int $total, int $idle, int $steal, int $ownNs): array
    {
        return ['cpu_ticks' => ['total' => $total, 'idle' => $idle, 'steal' => $steal], 'own_cpu_ns' => $ownNs, 'load_average' => null, 'governor' => null, 'frequency_mhz' => null];
    }

    public function testAQuietMachineIsNotBusy(): void
    {
        // 2 cores for 2 s: 400 ticks, 390 idle, the runner asleep.
        $reading = LoadAtStart::between(self::reading(1000, 500, 0, 0), self::reading(1400, 890, 0, 0));
        self::assertSame(['window_s' => 2.0, 'others_share' => 0.025, 'steal_share' => 0.0, 'busy' => false], $reading);
        self::assertNull(LoadAtStart::warning($reading));
    }

    public function testOtherProcessesOnBothCoresMakeItBusyAndTheWarningSaysHowBusy(): void
    {
        // 40 of 400 ticks idle (the issue's loaded runs: 10 % and 2 % idle), none of it the runner's.
        $reading = LoadAtStart::between(self::reading(1000, 500, 0, 0), self::reading(1400, 540, 4, 0));
        self::assertSame(0.9, $reading['others_share']);
        self::assertSame(0.01, $reading['steal_share']);
        self::assertTrue($reading['busy']);
        self::assertStringContainsString('other processes used 90 % of all cores\' time in the 2 s before the run (busy from 25 %)', (string) LoadAtStart::warning($reading));
    }

    public function testTheThresholdItselfIsBusyAndJustBelowIsNot(): void
    {
        $at = LoadAtStart::between(self::reading(0, 0, 0, 0), self::reading(400, 300, 0, 0));
        self::assertSame(0.25, $at['others_share']);
        self::assertTrue($at['busy']);
        $below = LoadAtStart::between(self::reading(0, 0, 0, 0), self::reading(400, 301, 0, 0));
        self::assertFalse($below['busy']);
    }

    public function testTheRunnersOwnCpuTimeIsNotOthers(): void
    {
        // 200 of 400 ticks busy, 1.5 s (150 ticks) of them the run's own: others 50 ticks.
        $reading = LoadAtStart::between(self::reading(0, 0, 0, 0), self::reading(400, 200, 0, 1_500_000_000));
        self::assertSame(0.125, $reading['others_share']);
        self::assertFalse($reading['busy']);
    }

    public function testUnreadableCountersSayNothingRatherThanQuiet(): void
    {
        $unreadable = ['cpu_ticks' => null, 'own_cpu_ns' => null, 'load_average' => null, 'governor' => null, 'frequency_mhz' => null];
        self::assertSame(['window_s' => 2.0, 'others_share' => null, 'steal_share' => null, 'busy' => false], LoadAtStart::between($unreadable, $unreadable));
    }

    public function testTheWindowIsWaitedForBetweenTheTwoReadings(): void
    {
        $waited = [];
        LoadAtStart::measure(new ModelledSystemLoad(), static function (float $seconds) use (&$waited): void {
            $waited[] = $seconds;
        });
        self::assertSame([LoadAtStart::WINDOW_SECONDS], $waited);
    }
}
