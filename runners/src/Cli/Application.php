<?php

declare(strict_types=1);

namespace PhpCryptoBench\Cli;

use PhpCryptoBench\Environment\EnvironmentProbe;
use PhpCryptoBench\Environment\ModelledSystemLoad;
use PhpCryptoBench\Environment\ProcSystemLoad;
use PhpCryptoBench\Exception\BenchException;
use PhpCryptoBench\Exception\UsageError;
use PhpCryptoBench\Experiment\ExperimentRegistry;
use PhpCryptoBench\Experiment\ExperimentSetup;
use PhpCryptoBench\Harness\FakeTimer;
use PhpCryptoBench\Harness\FakeWallClock;
use PhpCryptoBench\Harness\HrTimer;
use PhpCryptoBench\Harness\Profile;
use PhpCryptoBench\Harness\Progress;
use PhpCryptoBench\Harness\SystemWallClock;
use PhpCryptoBench\Harness\WallClock;
use PhpCryptoBench\Native\FixedNativeSpeed;
use PhpCryptoBench\Native\OpensslSpeedCommand;
use PhpCryptoBench\Run\ChildProcessLauncher;
use PhpCryptoBench\Run\ParentWatch;
use PhpCryptoBench\Run\Runner;

/** `bench.php`: results on stdout, progress and errors on stderr; exit 0 ok, 1 failure, 2 usage. */
final class Application
{
    public const EXIT_OK = 0;
    public const EXIT_FAILED = 1;
    public const EXIT_USAGE = 2;

    private const USAGE = <<<'TXT'
        Usage:
          php runners/bench.php run [--profile quick|full] [--budget-seconds S] [--ends-by T] [--no-native] [--only LIST] [--out DIR] [--resume] [--fake-clock]
          php runners/bench.php list
          php runners/bench.php --help

        run        verify, then measure the experiments into a run directory (default data/runs/<run-id>);
                   prints that directory on stdout, progress and ETA on stderr
          --profile  quick (default: at least 7 samples per case, more until the median's 95% CI is
                     within ±3 %) or full (at least 20, until ±1 %); see docs/methodology.md
          --budget-seconds  the experiments' time in all (quick: 270, full: 5400): each experiment
                     takes its cases' share of what is left, its sampling goes where the noise is, and
                     the run says what it took and how many cases reached their target
          --ends-by  a time, in seconds since the epoch (date +%s): the budget is the profile's (or
                     --budget-seconds'), or what is left until then when that is less (make report:
                     3.25 minutes at most, ending in time for its site within its 6 minutes in all)
          --no-native  leave the native tools out: `openssl speed` of the experiments' rounds and the
                     argon2 CLI (more than a minute of a quick run, on any host; make report): PHP's
                     figures only, each experiment that has them marked partial
          --only     comma-separated experiment names (see list)
          --out      the run directory to write
          --resume   finish the experiments a killed run in --out did not record
          --fake-clock  deterministic timings and timestamps, for tests (also PHPCB_FAKE_CLOCK=1)
        list       the experiments, one per line
        child NAME --profile P --out DIR [--budget-seconds S] [--no-native] [--fake-clock]
                   internal: run one experiment of a parent run (in the environment it needs, in the
                   budget the parent gives it) and print its manifest entry as JSON
        TXT;

    private ?ExperimentRegistry $registry = null;

    /**
     * @param resource $stdout
     * @param resource $stderr
     */
    public function __construct(
        private readonly string $repository,
        private $stdout,
        private $stderr,
    ) {
    }

    /**
     * The experiments under runners/src, found when a command first needs them: a broken schema file
     * or experiment class is then reported like any other error (one line, exit 1), and --help still works.
     */
    private function registry(): ExperimentRegistry
    {
        return $this->registry ??= ExperimentRegistry::discover(ExperimentSetup::forRepository($this->repository), $this->repository . '/runners/src');
    }

    /** @param list<string> $argv */
    public function run(array $argv): int
    {
        $arguments = array_slice($argv, 1);
        try {
            return match ($arguments[0] ?? '--help') {
                '--help', '-h', 'help' => $this->help(),
                'list' => $this->list(array_slice($arguments, 1)),
                'run' => $this->runExperiments(array_slice($arguments, 1)),
                'child' => $this->runChild(array_slice($arguments, 1)),
                default => throw UsageError::unknownCommand($arguments[0]),
            };
        } catch (UsageError $e) {
            fwrite($this->stderr, 'bench.php: ' . $e->getMessage() . PHP_EOL);
            return self::EXIT_USAGE;
        } catch (BenchException $e) {
            fwrite($this->stderr, 'bench.php: ' . $e->getMessage() . PHP_EOL);
            return self::EXIT_FAILED;
        }
    }

    private function help(): int
    {
        fwrite($this->stdout, self::USAGE . PHP_EOL);
        return self::EXIT_OK;
    }

    /** @param list<string> $arguments */
    private function list(array $arguments): int
    {
        if ($arguments !== []) {
            throw UsageError::unknownOption($arguments[0]);
        }
        foreach ($this->registry()->names() as $name) {
            fwrite($this->stdout, sprintf("%s\t%s\n", $name, $this->registry()->get($name)->description()));
        }
        return self::EXIT_OK;
    }

    /** @param int $now the wall clock's reading the budget of --ends-by is counted from */
    private static function profile(RunOptions $options, int $now): Profile
    {
        $profile = Profile::named($options->profile);
        $profile = $options->budgetNs === null ? $profile : $profile->withBudgetNs($options->budgetNs);
        $profile = $options->endsBy === null ? $profile : $profile->endingBy($options->endsBy, $now);
        $profile = $options->native ? $profile : $profile->withoutNative();
        return $options->fakeClock ? $profile->forFakeClock() : $profile;
    }

    /** The clock's time for --ends-by; 0 without it, unread: a reading moves the fake wall clock, whose first is the run's start. */
    private static function endsByNow(RunOptions $options, WallClock $clock): int
    {
        return $options->endsBy === null ? 0 : $clock->timestamp();
    }

    private static function wallClock(RunOptions $options): WallClock
    {
        return $options->fakeClock ? self::fakeWallClock() : new SystemWallClock();
    }

    /** What --ends-by left the experiments, said before anything is measured. */
    private function sayWhatEndsByLeaves(RunOptions $options, Profile $profile, int $now): void
    {
        if ($options->endsBy === null) {
            return;
        }
        $givenBudgetS = ($options->budgetNs ?? Profile::named($options->profile)->budgetNs) / 1e9;
        fwrite($this->stderr, sprintf(
            "--ends-by %s UTC, %s from now: the experiments' budget is %s (%s %s)%s\n",
            gmdate('H:i:s', $options->endsBy),
            Progress::clock(max(0, $options->endsBy - $now)),
            Progress::clock($profile->budgetNs / 1e9),
            $options->budgetNs === null ? "the {$options->profile} profile's is" : '--budget-seconds gives',
            Progress::clock($givenBudgetS),
            $profile->budgetNs / 1e9 < $givenBudgetS ? ', what is left until then' : '',
        ));
    }

    private function runner(RunOptions $options, Profile $profile, WallClock $clock): Runner
    {
        $timer = $options->fakeClock ? new FakeTimer() : new HrTimer();
        return new Runner(
            $timer,
            $clock,
            $options->fakeClock ? new FixedNativeSpeed() : new OpensslSpeedCommand($profile->nativeSeconds),
            $options->fakeClock ? EnvironmentProbe::forFakeClock() : new EnvironmentProbe(),
            // Under the fake clock, progress reads its time too: the same lines on every machine.
            new Progress($this->stderr, $timer->now(...)),
            $this->repository,
            new ChildProcessLauncher($this->repository . '/runners/bench.php', $this->stderr),
            $options->fakeClock ? new ModelledSystemLoad() : new ProcSystemLoad(),
        );
    }

    /**
     * The fake clock's start: fixed, so that a fake run writes the same bytes everywhere, unless
     * PHPCB_FAKE_CLOCK_START names another (a job of several fake runs gives each its own run id).
     */
    private static function fakeWallClock(): FakeWallClock
    {
        $start = getenv('PHPCB_FAKE_CLOCK_START');
        if (!is_string($start) || $start === '') {
            return new FakeWallClock();
        }
        if (preg_match('/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$/', $start) !== 1) {
            throw UsageError::badFakeClockStart($start);
        }
        return new FakeWallClock($start);
    }

    /** @param list<string> $arguments */
    private function runChild(array $arguments): int
    {
        ParentWatch::watchIfAsked();
        $name = array_shift($arguments) ?? throw UsageError::missingValue('child');
        $experiment = $this->registry()->get($name);
        $options = RunOptions::parse($arguments, $this->registry()->names(), getenv('PHPCB_FAKE_CLOCK') === '1');
        if ($options->out === null) {
            throw UsageError::missingValue('--out');
        }
        $clock = self::wallClock($options);
        $profile = self::profile($options, self::endsByNow($options, $clock));
        $entry = $this->runner($options, $profile, $clock)->runExperimentHere($experiment, $profile, $options->out);
        ParentWatch::exitIfParentGone();
        fwrite($this->stdout, json_encode($entry, JSON_UNESCAPED_SLASHES | JSON_PRESERVE_ZERO_FRACTION | JSON_THROW_ON_ERROR) . PHP_EOL);
        return self::EXIT_OK;
    }

    /** @param list<string> $arguments */
    private function runExperiments(array $arguments): int
    {
        $options = RunOptions::parse($arguments, $this->registry()->names(), getenv('PHPCB_FAKE_CLOCK') === '1');
        $clock = self::wallClock($options);
        $now = self::endsByNow($options, $clock);
        $profile = self::profile($options, $now);
        $this->sayWhatEndsByLeaves($options, $profile, $now);
        $runner = $this->runner($options, $profile, $clock);
        $experiments = $this->registry()->select($options->only);
        // Without --out the runner names the directory, from the same clock reading as started_utc.
        $manifest = $options->resume
            ? $runner->resume($experiments, $options->out ?? throw UsageError::resumeWithoutOut(), $options->budgetNs)
            : $runner->start($profile, $experiments, $options->out);
        $directory = $options->out ?? $runner->defaultDirectory($manifest->runId());
        fwrite($this->stdout, $directory . PHP_EOL);
        $failed = array_keys(array_filter(
            $manifest->toArray()['experiments'],
            static fn (array $entry): bool => $entry['status'] === 'failed',
        ));
        if ($failed !== []) {
            fwrite($this->stderr, sprintf('bench.php: experiment(s) failed: %s (see manifest.json)', implode(', ', $failed)) . PHP_EOL);
            return self::EXIT_FAILED;
        }
        return self::EXIT_OK;
    }
}
