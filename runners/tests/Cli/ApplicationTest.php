<?php

declare(strict_types=1);

namespace PhpCryptoBench\Tests\Cli;

use PhpCryptoBench\Cli\Application;
use PhpCryptoBench\Tests\Support\DeclaredExperiments;
use PHPUnit\Framework\TestCase;
use PHPUnit\Framework\Attributes\DataProvider;

final class ApplicationTest extends TestCase
{
    /** @return array{int, string, string} exit code, stdout, stderr */
    private function invoke(string ...$arguments): array
    {
        return $this->invokeIn(REPOSITORY, ...$arguments);
    }

    /** @return array{int, string, string} exit code, stdout, stderr */
    private function invokeIn(string $repository, string ...$arguments): array
    {
        $stdout = fopen('php://memory', 'w+b');
        $stderr = fopen('php://memory', 'w+b');
        $code = (new Application($repository, $stdout, $stderr))->run(['bench.php', ...$arguments]);
        rewind($stdout);
        rewind($stderr);
        return [$code, (string) stream_get_contents($stdout), (string) stream_get_contents($stderr)];
    }

    public function testListPrintsEachExperimentOnStdout(): void
    {
        [$code, $out, $err] = $this->invoke('list');
        self::assertSame(0, $code);
        self::assertStringStartsWith("aead\t", $out);
        self::assertSame('', $err);
    }

    public function testListShowsEveryExperimentInOrderOfName(): void
    {
        [, $out] = $this->invoke('list');
        $names = array_map(static fn (string $line): string => explode("\t", $line)[0], explode("\n", rtrim($out)));
        self::assertSame(DeclaredExperiments::names(), $names);
    }

    /**
     * A checkout whose runners/src holds the experiments of Experiment/Fixtures/$fixtures, beside this
     * checkout's table schemas.
     */
    private static function checkoutWith(string $fixtures): string
    {
        $repository = sys_get_temp_dir() . '/pcb-app-' . bin2hex(random_bytes(4));
        mkdir($repository . '/runners', 0777, true);
        mkdir($repository . '/data/schema', 0777, true);
        symlink(dirname(__DIR__) . '/Experiment/Fixtures/' . $fixtures, $repository . '/runners/src');
        symlink(REPOSITORY . '/data/schema/tables', $repository . '/data/schema/tables');
        symlink(REPOSITORY . '/data/schema/shared', $repository . '/data/schema/shared');
        return $repository;
    }

    private static function removeCheckout(string $repository): void
    {
        unlink($repository . '/runners/src');
        unlink($repository . '/data/schema/tables');
        unlink($repository . '/data/schema/shared');
        rmdir($repository . '/data/schema');
        rmdir($repository . '/data');
        rmdir($repository . '/runners');
        rmdir($repository);
    }

    public function testABrokenExperimentIsOneLineAndExitOneNotATrace(): void
    {
        // A checkout whose runners/src holds an experiment whose factory throws.
        $repository = self::checkoutWith('broken');
        try {
            [$code, $out, $err] = $this->invokeIn($repository, 'list');
            [$helpCode] = $this->invokeIn($repository, '--help');
        } finally {
            self::removeCheckout($repository);
        }
        self::assertSame(1, $code);
        self::assertSame('', $out);
        self::assertSame(sprintf("bench.php: experiment class PhpCryptoBench\\Faulty\\FaultyExperiment could not be built by PhpCryptoBench\\Faulty\\FaultyExperiment::create(): RuntimeException: no vectors under %s\n", $repository), $err);
        self::assertSame(0, $helpCode, '--help needs no experiment');
    }

    public function testAMissingSchemaDirectoryIsOneLineAndExitOne(): void
    {
        [$code, , $err] = $this->invokeIn('/nonexistent', 'list');
        self::assertSame(1, $code);
        self::assertSame("bench.php: cannot read /nonexistent/data/schema/tables: expected the directory of table schemas (one <experiment>.json per experiment), found none\n", $err);
    }

    public function testHelpIsTheDefault(): void
    {
        [$code, $out] = $this->invoke();
        self::assertSame(0, $code);
        self::assertStringContainsString('php runners/bench.php run [--profile quick|full]', $out);
    }

    /**
     * A fake-clock run of `bench.php run $arguments`: its exit code and the lines it printed on stderr.
     * What --ends-by and --budget-seconds say comes from the runner before any experiment is measured,
     * the same whichever it runs: the run is of b_sample (Experiment/Fixtures/good/Sample), which
     * measures nothing (pitfalls made three RSA-2048 keys a run, most of a CPU-second).
     *
     * @return array{int, list<string>, string}
     */
    private function runOfNothing(string ...$arguments): array
    {
        $repository = self::checkoutWith('good');
        $out = sys_get_temp_dir() . '/pcb-ends-by-' . bin2hex(random_bytes(4));
        try {
            [$code, , $err] = $this->invokeIn($repository, 'run', '--fake-clock', '--only', 'b_sample', '--out', $out, ...$arguments);
        } finally {
            self::removeCheckout($repository);
        }
        array_map('unlink', glob($out . '/*') ?: []);
        rmdir($out);
        return [$code, explode("\n", $err), $err];
    }

    public function testEndsBySaysWhatItLeavesTheExperimentsBeforeAnythingIsMeasured(): void
    {
        // The fake wall clock starts at 2026-01-01T00:00:00 (1767225600): 20 s left until then.
        [$code, $lines, $err] = $this->runOfNothing('--ends-by', '1767225620');
        self::assertSame(0, $code, $err);
        self::assertSame("--ends-by 00:00:20 UTC, 0:20 from now: the experiments' budget is 0:20 (the quick profile's is 4:30), what is left until then", $lines[0]);
        self::assertStringStartsWith('budget 0:20 for the experiments (--budget-seconds 20)', $lines[1]);
    }

    /** make report's way: at most the budget given, and less where --ends-by leaves less. */
    public function testABudgetAndEndsByTogetherGiveTheLesser(): void
    {
        // The fake wall clock starts at 2026-01-01T00:00:00 (1767225600).
        $cases = [
            ['30', '1767225620', "--ends-by 00:00:20 UTC, 0:20 from now: the experiments' budget is 0:20 (--budget-seconds gives 0:30), what is left until then", '0:20'],
            ['12', '1767226000', "--ends-by 00:06:40 UTC, 6:40 from now: the experiments' budget is 0:12 (--budget-seconds gives 0:12)", '0:12'],
        ];
        foreach ($cases as [$budget, $endsBy, $said, $taken]) {
            [$code, $lines, $err] = $this->runOfNothing('--budget-seconds', $budget, '--ends-by', $endsBy);
            self::assertSame(0, $code, $err);
            self::assertSame($said, $lines[0]);
            self::assertStringStartsWith("budget $taken for the experiments", $lines[1]);
        }
    }

    /** @return iterable<string, array{list<string>, string}> */
    public static function usageErrors(): iterable
    {
        yield 'unknown command' => [['bench'], "bench.php: unknown command \"bench\"; expected one of: run, list, --help\n"];
        yield 'unknown option' => [['run', '--quick'], "bench.php: unknown option \"--quick\"; see --help\n"];
        yield 'unknown experiment' => [['run', '--only', 'rot13'], sprintf("bench.php: unknown experiment \"rot13\"; expected one of: %s\n", implode(', ', DeclaredExperiments::names()))];
        yield 'list takes no options' => [['list', '--all'], "bench.php: unknown option \"--all\"; see --help\n"];
    }

    /**
     * @dataProvider usageErrors
     * @param list<string> $arguments
     */
    #[DataProvider('usageErrors')]
    public function testUsageErrorsPrintOneLineAndExitTwo(array $arguments, string $expected): void
    {
        [$code, $out, $err] = $this->invoke(...$arguments);
        self::assertSame(2, $code);
        self::assertSame('', $out);
        self::assertSame($expected, $err);
    }
}
