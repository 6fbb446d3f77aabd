<?php

declare(strict_types=1);

namespace PhpCryptoBench\Run;

use JsonException;
use stdClass;

/**
 * `php runners/bench.php child NAME ...` with extra environment variables: the child verifies
 * and measures as usual, writes the CSVs itself, and prints its manifest entry as JSON on stdout,
 * with `measured_by` probed inside it. Its progress goes straight to our stderr.
 *
 * The child is this PHP (ChildPhp: same binary, same ini state), its environment ours plus the
 * variables the experiment declares, and it dies with us (ParentWatch: parent-death signal, and
 * a stdin pipe we hold open until it has answered).
 */
final class ChildProcessLauncher implements ExperimentLauncher
{
    /** @param resource $stderr */
    public function __construct(private readonly string $benchScript, private $stderr)
    {
    }

    public function launch(string $experiment, string $profile, string $directory, bool $fakeClock, array $environment, int $budgetNs, bool $native = true): array
    {
        $arguments = [$this->benchScript, 'child', $experiment, '--profile', $profile, '--out', $directory, '--budget-seconds', sprintf('%.3f', $budgetNs / 1e9)];
        if (!$native) {
            $arguments[] = '--no-native';
        }
        if ($fakeClock) {
            $arguments[] = '--fake-clock';
        }
        $started = hrtime(true);
        $process = proc_open(ChildPhp::command($arguments), [0 => ['pipe', 'r'], 1 => ['pipe', 'w'], 2 => $this->stderr], $pipes, null, ChildPhp::environment($environment));
        if (!is_resource($process)) {
            return self::failed('could not start the child process', $started);
        }
        $output = (string) stream_get_contents($pipes[1]);
        fclose($pipes[1]);
        fclose($pipes[0]);
        $exitCode = proc_close($process);
        try {
            // Objects stay objects (an empty map must not come back as a list).
            $entry = json_decode($output, false, 64, JSON_THROW_ON_ERROR);
        } catch (JsonException $e) {
            return self::failed(sprintf('the child process exited with %d and gave no manifest entry (%s)', $exitCode, $e->getMessage()), $started);
        }
        return $entry instanceof stdClass ? get_object_vars($entry) : self::failed('the child process printed no JSON object', $started);
    }

    /** @return array<string, mixed> */
    private static function failed(string $reason, int $startedNs): array
    {
        return [
            'status' => 'failed',
            'reason' => $reason,
            'duration_s' => round((hrtime(true) - $startedNs) / 1e9, 3),
            'files' => [],
            'verification' => null,
            'measured_by' => null,
        ];
    }
}
