<?php

declare(strict_types=1);

namespace PhpCryptoBench\Tests\Run;

use PhpCryptoBench\Environment\EnvironmentProbe;
use PhpCryptoBench\Environment\ModelledSystemLoad;
use PhpCryptoBench\Harness\FakeTimer;
use PhpCryptoBench\Harness\FakeWallClock;
use PhpCryptoBench\Harness\Profile;
use PhpCryptoBench\Harness\Progress;
use PhpCryptoBench\Native\FixedNativeSpeed;
use PhpCryptoBench\Run\Runner;
use PhpCryptoBench\Tests\Support\FollowingExperiment;
use PhpCryptoBench\Tests\Support\StubExperiment;
use PHPUnit\Framework\TestCase;

/**
 * An experiment that leaves a measurement to one before it is told, before the run's work is
 * projected and as it measures, which experiments come before it: in this session's order, and,
 * resumed, those the run recorded as measured (a failed one measured nothing).
 */
final class FollowsEarlierExperimentsTest extends TestCase
{
    private string $directory;

    protected function setUp(): void
    {
        $this->directory = sys_get_temp_dir() . '/pcb-follows-' . bin2hex(random_bytes(4)) . '/20260101T0000Z-test-php8.2';
    }

    protected function tearDown(): void
    {
        array_map('unlink', glob($this->directory . '/*') ?: []);
        @rmdir($this->directory);
        @rmdir(dirname($this->directory));
    }

    private function runner(): Runner
    {
        return new Runner(new FakeTimer(), new FakeWallClock(), new FixedNativeSpeed(), EnvironmentProbe::forFakeClock(), new Progress(fopen('php://memory', 'w')), REPOSITORY, null, new ModelledSystemLoad());
    }

    public function testItIsToldTheExperimentsThisRunMeasuresBeforeItAndNotThoseAfter(): void
    {
        $follower = new FollowingExperiment();
        $this->runner()->start(Profile::named('quick')->forFakeClock(), [new StubExperiment('first'), $follower, new StubExperiment('last')], $this->directory);

        self::assertNotEmpty($follower->seen);
        foreach ($follower->seen as [$what, $before]) {
            self::assertSame(['first'], $before, $what . ' saw another list');
        }
        self::assertContains('measure', array_column($follower->seen->getArrayCopy(), 0));
    }

    public function testResumedItIsToldTheRecordedExperimentsThatMeasured(): void
    {
        $this->runner()->start(Profile::named('quick')->forFakeClock(), [new StubExperiment('measured'), new StubExperiment('broken', verificationFails: true)], $this->directory);
        $follower = new FollowingExperiment();
        $this->runner()->resume([new StubExperiment('measured'), new StubExperiment('broken'), new StubExperiment('missing'), $follower], $this->directory);

        self::assertSame(['measure', ['measured', 'missing']], $follower->seen[count($follower->seen) - 1]);
    }
}
