<?php

declare(strict_types=1);

namespace PhpCryptoBench\Run;

use PhpCryptoBench\Environment\EnvironmentProbe;
use PhpCryptoBench\Environment\LoadAtStart;
use PhpCryptoBench\Environment\ProcSystemLoad;
use PhpCryptoBench\Environment\Stack;
use PhpCryptoBench\Environment\SystemLoad;
use PhpCryptoBench\Exception\BenchException;
use PhpCryptoBench\Exception\IoError;
use PhpCryptoBench\Experiment\Experiment;
use PhpCryptoBench\Experiment\ExperimentContext;
use PhpCryptoBench\Experiment\FollowsEarlierExperiments;
use PhpCryptoBench\Harness\FixedWork;
use PhpCryptoBench\Harness\Profile;
use PhpCryptoBench\Harness\Progress;
use PhpCryptoBench\Harness\RunBudget;
use PhpCryptoBench\Harness\Sampler;
use PhpCryptoBench\Harness\Timer;
use PhpCryptoBench\Harness\WallClock;
use PhpCryptoBench\Native\NativeSpeed;

/**
 * Runs experiments into one run directory. The manifest is rewritten (atomically) after each
 * experiment, so a killed run can be resumed: experiments it does not list are run again.
 *
 * The experiments share the profile's time budget (RunBudget): each gets its fixed work (FixedWork)
 * and its cases' share of what is left when it starts, its sampling spends it where the noise is (ExperimentBudget, GroupRounds), and
 * the runner says on stderr what each took of its share and how many cases reached the target, and at
 * the end what the run took of its budget and the precision it reached.
 */
final class Runner
{
    public function __construct(
        private readonly Timer $timer,
        private readonly WallClock $clock,
        private readonly NativeSpeed $nativeSpeed,
        private readonly EnvironmentProbe $probe,
        private readonly Progress $progress,
        private readonly string $repository,
        private readonly ?ExperimentLauncher $launcher = null,
        private readonly SystemLoad $load = new ProcSystemLoad(),
    ) {
    }

    /** The directory a run of this id gets unless --out names another: data/runs/<run id>. */
    public function defaultDirectory(string $runId): string
    {
        return $this->repository . '/data/runs/' . $runId;
    }

    /**
     * Starts a run in $directory (--out: its name is the run id), or, given none, in the default
     * directory of the id this run gets. One clock reading, taken before the load window, is both the
     * id's minute and started_utc: two readings, either side of that 2-second window, once named a run
     * 20261128T2047Z-… and recorded its start as 20:48:01, an id its own checks refuse.
     *
     * @param list<Experiment> $experiments
     */
    public function start(Profile $profile, array $experiments, ?string $directory = null): Manifest
    {
        $started = $this->clock->now();
        $directory ??= $this->defaultDirectory(RunId::make($started, $this->probe->machine()->name, PHP_VERSION, Stack::nameFromEnvironment()));
        if (is_file($directory . '/' . Manifest::FILE)) {
            throw IoError::runDirectoryNotEmpty($directory);
        }
        $atStart = $this->loadAtStart();
        $manifest = Manifest::start([
            'run_id' => basename($directory),
            'profile' => $profile->name,
            'timer' => $this->timer->name(),
            'started_utc' => $started->format('Y-m-d\TH:i:s\Z'),
            'git_commit' => $this->probe->gitCommit($this->repository),
            'php' => $this->probe->php(),
            'libraries' => $this->probe->libraries(),
            'stack' => $this->probe->stack($this->nativeSpeed->toolVersion()),
            'machine' => $this->probe->machine()->toManifest() + ['virtual' => $this->probe->isVirtual()],
            'cpu' => $this->probe->cpu(),
            'memory_bytes' => $this->probe->memoryBytes(),
            'os' => $this->probe->os(),
            'kernel' => $this->probe->kernel(),
            'kernel_build' => $this->probe->kernelBuild(),
            'boot' => $this->probe->boot(),
            'system' => ['before' => $this->load->snapshot(), 'after' => null, 'at_start' => $atStart],
        ]);
        return $this->finishRun($manifest, $profile, $experiments, $directory);
    }

    /**
     * Whether other processes keep the machine busy, read before anything is measured; a busy
     * machine is reported on stderr at once (and the manifest records the reading either way).
     *
     * @return array{window_s: float, others_share: float|null, steal_share: float|null, busy: bool}
     */
    private function loadAtStart(): array
    {
        $fake = $this->timer->name() === 'fake';
        $reading = LoadAtStart::measure($this->load, static function (float $seconds) use ($fake): void {
            if (!$fake) {
                usleep((int) ($seconds * 1e6));
            }
        });
        $warning = LoadAtStart::warning($reading);
        if ($warning !== null) {
            $this->progress->message($warning);
        }
        return $reading;
    }

    /**
     * @param list<Experiment> $experiments
     * @param int|null $budgetNs the run's budget (--budget-seconds); null: the profile's. What the
     *                           experiments already recorded took (their duration_s) is spent.
     */
    public function resume(array $experiments, string $directory, ?int $budgetNs = null): Manifest
    {
        $manifest = Manifest::load($directory);
        $profile = Profile::named($manifest->profile());
        $profile = $budgetNs === null ? $profile : $profile->withBudgetNs($budgetNs);
        // As when the run started: under the fake clock, calibrating to real sample lengths
        // against modelled time would run slow cases millions of times.
        $profile = $this->timer->name() === 'fake' ? $profile->forFakeClock() : $profile;
        $missing = array_values(array_filter($experiments, static fn (Experiment $e): bool => !$manifest->hasExperiment($e->name())));
        $this->progress->message(sprintf('resuming %s: %d experiment(s) left', $manifest->runId(), count($missing)));
        // Under the fake clock the budget is modelled time, the recorded durations real: none is spent,
        // so that a resumed fake run samples as a whole one does.
        $spentNs = $this->timer->name() === 'fake' ? 0 : (int) round(1e9 * array_sum(array_map(
            static fn (array $entry): float => (float) ($entry['duration_s'] ?? 0),
            $manifest->toArray()['experiments'],
        )));
        return $this->finishRun($manifest, $profile, $missing, $directory, $spentNs);
    }

    /** @param list<Experiment> $experiments */
    private function finishRun(Manifest $manifest, Profile $profile, array $experiments, string $directory, int $spentNs = 0): Manifest
    {
        $manifest->save($directory);
        $experiments = self::toldWhatComesBefore($experiments, $manifest);
        $context = $this->context($profile, $directory, $manifest->cores());
        // Projecting the fixed work times a little of it on this host (an Argon2 cell, a slow case's
        // operation): that time is the run's too.
        $projecting = $this->timer->now();
        $fixed = self::fixedWork($experiments, $profile, $this->timer->name() === 'fake');
        $projectedIn = $this->timer->now() - $projecting;
        $budget = new RunBudget($profile->budgetNs, self::weights($experiments, $profile, $fixed), $spentNs + $projectedIn, $profile->caseSliceNs, $fixed);
        $this->progress->message(sprintf(
            'budget %s for the experiments (--budget-seconds %s)%s: each takes its cases\' share of what is left%s',
            Progress::clock($budget->totalNs / 1e9),
            self::seconds($budget->totalNs),
            $spentNs > 0 ? sprintf(', %s of it spent before', Progress::clock($spentNs / 1e9)) : '',
            $fixed === [] ? '' : sprintf(' past its fixed work (%s in all, projected on this host in %s)', Progress::clock(array_sum($fixed) / 1e9), Progress::clock($projectedIn / 1e9)),
        ));
        if ($fixed !== []) {
            $this->progress->message(self::fixedWorkLine($fixed));
        }
        if (array_sum($fixed) > $budget->leftNs()) {
            $this->progress->message(sprintf(
                'WARNING: the work no budget shortens (`openssl speed` rounds, verification, every case\'s least samples) is projected at %s on this host, past the %s left: each experiment takes its least samples only, and the run ends late',
                Progress::clock(array_sum($fixed) / 1e9),
                Progress::clock($budget->leftNs() / 1e9),
            ));
        }
        foreach ($experiments as $experiment) {
            $share = $budget->forExperiment($experiment->name());
            $started = $this->timer->now();
            $entry = self::checkMeasuredBy($this->runOne($experiment, $context, $share), $manifest);
            $took = $this->timer->now() - $started;
            $budget->spent($experiment->name(), $took);
            $this->progress->message(self::experimentLine($experiment->name(), $entry, $share, $took));
            $manifest->recordExperiment($experiment->name(), $entry);
            $manifest->save($directory);
        }
        $manifest->finish($this->clock->now()->format('Y-m-d\TH:i:s\Z'), $this->load->snapshot());
        $manifest->seal(RunSeal::of($directory, $manifest->files()));
        $manifest->save($directory);
        $this->progress->message(self::runLine($manifest->toArray()['experiments'], $budget));
        return $manifest;
    }

    /**
     * Each experiment that leaves a measurement to one before it (FollowsEarlierExperiments), told which
     * come before it: those the run recorded as measured, then those this session runs first.
     *
     * @param list<Experiment> $experiments in the order they run
     * @return list<Experiment>
     */
    private static function toldWhatComesBefore(array $experiments, Manifest $manifest): array
    {
        $before = self::measuredExperiments($manifest);
        $told = [];
        foreach ($experiments as $experiment) {
            $told[] = $experiment instanceof FollowsEarlierExperiments ? $experiment->after($before) : $experiment;
            $before[] = $experiment->name();
        }
        return $told;
    }

    /** @return list<string> the experiments the manifest records as measured (ok or partial) */
    private static function measuredExperiments(Manifest $manifest): array
    {
        $measured = array_filter($manifest->toArray()['experiments'], static fn (array $entry): bool => in_array($entry['status'] ?? null, ['ok', 'partial'], true));
        return array_map('strval', array_keys($measured));
    }

    /**
     * Each experiment's weight in the budget: the cases it says it measures, and its fixed work counted
     * in cases of the profile's average (Profile::$caseAllowanceNs): an experiment whose least work is
     * long needs as much longer past it for the same precision (an Argon2 hash past a cell's least is
     * 100 ms, a cipher's sample 0.5 ms); none for one that cannot run here.
     *
     * @param list<Experiment> $experiments
     * @param array<string, int> $fixedNs per experiment, its fixed work (fixedWork())
     * @return array<string, float>
     */
    private static function weights(array $experiments, Profile $profile, array $fixedNs): array
    {
        $weights = [];
        foreach ($experiments as $experiment) {
            $fixed = ($fixedNs[$experiment->name()] ?? 0) / max(1, $profile->caseAllowanceNs);
            $weights[$experiment->name()] = $experiment->unavailableReason() === null ? max(1, $experiment->caseCount($profile)) + $fixed : 0.0;
        }
        return $weights;
    }

    /**
     * What each experiment that says so (FixedWork) spends besides sampling its cases, reserved for it
     * before the budget is shared by case count.
     *
     * @param list<Experiment> $experiments
     * @return array<string, int>
     */
    private static function fixedWork(array $experiments, Profile $profile, bool $fakeClock): array
    {
        $fixed = [];
        foreach ($experiments as $experiment) {
            if ($experiment instanceof FixedWork && $experiment->unavailableReason() === null) {
                $fixed[$experiment->name()] = max(0, $experiment->fixedWorkNs($profile, $fakeClock));
            }
        }
        return $fixed;
    }

    /**
     * "fixed work by experiment: aead 0:17, argon2 0:50, ...", in the order they run: which of them to
     * look at when the fixed work leaves too little of the budget (on a slow host).
     *
     * @param array<string, int> $fixedNs
     */
    private static function fixedWorkLine(array $fixedNs): string
    {
        $parts = array_map(static fn (string $name, int $ns): string => sprintf('%s %s', $name, Progress::clock($ns / 1e9)), array_keys($fixedNs), $fixedNs);
        return 'fixed work by experiment: ' . implode(', ', $parts);
    }

    private static function seconds(int $ns): string
    {
        return rtrim(rtrim(sprintf('%.3f', $ns / 1e9), '0'), '.');
    }

    /**
     * "[aead] took 0:44 of its 0:55; 261 of 262 cases within ±3 %".
     *
     * @param array<string, mixed> $entry
     */
    private static function experimentLine(string $name, array $entry, int $shareNs, int $tookNs): string
    {
        $sampling = $entry['sampling'] ?? null;
        $sampling = $sampling instanceof \stdClass ? get_object_vars($sampling) : $sampling;
        $reached = is_array($sampling)
            ? sprintf('; %s of %s cases within ±%s %%', number_format((int) $sampling['within_target']), number_format((int) $sampling['cases']), self::percent((float) $sampling['target']))
            : '';
        return sprintf('[%s] took %s of its %s%s', $name, Progress::clock($tookNs / 1e9), Progress::clock($shareNs / 1e9), $reached);
    }

    /**
     * "experiments took 4:28 of the 4:30 budget; 1,012 of 1,030 cases (98.3 %) within their target".
     *
     * @param array<string, array<string, mixed>> $entries every entry of the run, resumed ones included
     */
    private static function runLine(array $entries, RunBudget $budget): string
    {
        $cases = 0;
        $within = 0;
        foreach ($entries as $entry) {
            $sampling = $entry['sampling'] ?? null;
            $sampling = $sampling instanceof \stdClass ? get_object_vars($sampling) : $sampling;
            if (is_array($sampling)) {
                $cases += (int) $sampling['cases'];
                $within += (int) $sampling['within_target'];
            }
        }
        return sprintf(
            'experiments took %s of the %s budget; %s of %s cases (%s %%) within their target',
            Progress::clock($budget->spentNs() / 1e9),
            Progress::clock($budget->totalNs / 1e9),
            number_format($within),
            number_format($cases),
            $cases === 0 ? '-' : sprintf('%.1f', 100 * $within / $cases),
        );
    }

    private static function percent(float $fraction): string
    {
        return rtrim(rtrim(sprintf('%.2f', 100 * $fraction), '0'), '.');
    }

    /**
     * @param int $budgetNs what the experiment may spend (RunBudget::forExperiment)
     * @return array<string, mixed> the experiment's manifest entry
     */
    private function runOne(Experiment $experiment, ExperimentContext $context, int $budgetNs): array
    {
        $environment = $experiment->processEnvironment();
        if ($environment !== [] && !self::hasEnvironment($environment) && $this->launcher !== null) {
            $this->progress->message(sprintf('[%s] running in a child process with %s', $experiment->name(), self::describe($environment)));
            return $this->launcher->launch(
                $experiment->name(),
                $context->profile->name,
                $context->outputDirectory,
                $this->timer->name() === 'fake',
                $environment,
                $budgetNs,
                $context->profile->native,
            );
        }
        return $this->runHere($experiment, $context, 'runner', $budgetNs);
    }

    /**
     * An entry whose measuring process differs from the PHP the run records (a child that loaded
     * another php.ini, another extension, another PHP) is failed: its numbers would be shown beside
     * an environment that did not produce them. Its files stay on disk, unlisted.
     *
     * @param array<string, mixed> $entry
     * @return array<string, mixed>
     */
    private static function checkMeasuredBy(array $entry, Manifest $manifest): array
    {
        $measuredBy = $entry['measured_by'] ?? null;
        if (!is_array($measuredBy) || !in_array($entry['status'] ?? null, ['ok', 'partial'], true)) {
            return $entry;
        }
        $differences = EnvironmentProbe::differences($manifest->toArray(), $measuredBy);
        if ($differences === []) {
            return $entry;
        }
        return ['status' => 'failed', 'reason' => sprintf('the %s process that measured is not the PHP this run records (%s)', $measuredBy['process'] ?? 'measuring', implode('; ', $differences))] + ['files' => []] + $entry;
    }

    /** @param array<string, string> $environment */
    private static function hasEnvironment(array $environment): bool
    {
        foreach ($environment as $name => $value) {
            if (getenv($name) !== $value) {
                return false;
            }
        }
        return true;
    }

    /** @param array<string, string> $environment */
    private static function describe(array $environment): string
    {
        return implode(' ', array_map(static fn (string $k, string $v): string => "$k=$v", array_keys($environment), $environment));
    }

    /**
     * Verify, then measure, in this process: for `bench.php child`, which runs one experiment
     * for a parent run and prints the entry.
     *
     * @return array<string, mixed>
     */
    public function runExperimentHere(Experiment $experiment, Profile $profile, string $directory): array
    {
        if ($this->timer->name() === 'fake') {
            TestHold::holdIfAsked(TestHold::CHILD_VARIABLE, $experiment->name());
        }
        // The parent saved the run's manifest before starting this child: its core count is the run's;
        // its budget (--budget-seconds) is the experiment's share of the run's.
        $manifest = Manifest::load($directory);
        [$experiment] = self::toldWhatComesBefore([$experiment], $manifest);
        return $this->runHere($experiment, $this->context($profile, $directory, $manifest->cores()), 'child', $profile->budgetNs);
    }

    private function context(Profile $profile, string $directory, int $cores): ExperimentContext
    {
        return new ExperimentContext($profile, new Sampler($this->timer, $profile, $this->progress), $this->progress, $this->nativeSpeed, $directory, $this->timer->name() === 'fake', $cores);
    }

    /**
     * @param 'runner'|'child' $process which process this is
     * @param int $budgetNs what the experiment may spend, verification included
     * @return array<string, mixed>
     */
    private function runHere(Experiment $experiment, ExperimentContext $context, string $process, int $budgetNs): array
    {
        $entry = $this->verifyAndMeasure($experiment, $context, $budgetNs);
        $environment = $experiment->processEnvironment();
        if ($environment !== []) {
            $entry['settings'] = ['environment' => self::inRepository($environment, $this->repository)];
        }
        // Probed here, in the process that verified and measured (or in the processes it measured in).
        $entry['measured_by'] = $entry['measured_by'] ?? $this->probe->process($process);
        return $entry;
    }

    /** @return array<string, mixed> */
    private function verifyAndMeasure(Experiment $experiment, ExperimentContext $context, int $budgetNs): array
    {
        $startNs = hrtime(true);
        $startedOnTimer = $this->timer->now();
        $before = $this->load->snapshot();
        $outcome = fn (string $status, ?string $reason, array $files = [], array $verification = [], ?array $sampling = null): array => [
            'status' => $status,
            'reason' => $reason,
            'duration_s' => round((hrtime(true) - $startNs) / 1e9, 3),
            'files' => $files,
            'verification' => $verification === [] ? null : $verification,
            'sampling' => $sampling,
            'system' => ['before' => $before, 'after' => $this->load->snapshot()],
        ];
        $unavailable = $experiment->unavailableReason();
        if ($unavailable !== null) {
            $this->progress->message(sprintf('[%s] unavailable: %s', $experiment->name(), $unavailable));
            return $outcome('unavailable', $unavailable);
        }
        try {
            $this->progress->message(sprintf('[%s] verifying before timing', $experiment->name()));
            $verification = $experiment->verify();
        } catch (BenchException $e) {
            $this->progress->message(sprintf('[%s] FAILED verification, nothing timed: %s', $experiment->name(), $e->getMessage()));
            return $outcome('failed', 'verification failed: ' . $e->getMessage());
        }
        try {
            $context->sampler->beginExperiment($budgetNs, $experiment->caseCount($context->profile), $startedOnTimer);
            $result = $experiment->measure($context);
        } catch (BenchException $e) {
            $this->progress->message(sprintf('[%s] FAILED: %s', $experiment->name(), $e->getMessage()));
            return $outcome('failed', $e->getMessage(), [], $verification);
        }
        $status = $result->gaps === [] ? 'ok' : 'partial';
        $this->progress->message(sprintf('[%s] %s', $experiment->name(), $status));
        if ($result->sampling === null) {
            $this->progress->message(sprintf('[%s] %s', $experiment->name(), $context->sampler->tally()->summary()));
        }
        $sampling = $result->sampling ?? $context->sampler->tally()->toManifest();
        $entry = $outcome($status, $result->gaps === [] ? null : implode('; ', $result->gaps), $result->files, $verification, $sampling);
        return $result->measuredBy === null ? $entry : $entry + ['measured_by' => $result->measuredBy];
    }

    /**
     * Paths inside the repository as the repository names them (runners/openssl-legacy.cnf): a run
     * published from a checkout in /tmp must not carry that checkout's path.
     *
     * @param array<string, string> $environment
     * @return array<string, string>
     */
    public static function inRepository(array $environment, string $repository): array
    {
        $prefix = rtrim($repository, '/') . '/';
        return array_map(static fn (string $value): string => str_starts_with($value, $prefix) ? substr($value, strlen($prefix)) : $value, $environment);
    }
}
