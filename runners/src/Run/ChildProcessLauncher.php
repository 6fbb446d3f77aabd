<?php

declare(strict_types=1);

namespace PhpCryptoBench\Run;

use JsonException;
use stdClass;

/**
 * `php runners/bench.php child NAME ...` with extra environment variables: the child verifies
 * and measures as usual, writes the CSVs itself, and prints its manifest entry as JSON on stdout.
 * Its progress goes straight to our stderr.
 */
final class ChildProcessLauncher implements ExperimentLauncher
{
    /** @param resource $stderr */
    public function __construct(private readonly string $benchScript, private $stderr)
    {
    }

    public function launch(string $experiment, string $profile, string $directory, bool $fakeClock, array $environment): array
    {
        $command = [PHP_BINARY, $this->benchScript, 'child', $experiment, '--profile', $profile, '--out', $directory];
        if ($fakeClock) {
            $command[] = '--fake-clock';
        }
        $started = hrtime(true);
        $process = proc_open($command, [0 => ['file', '/dev/null', 'r'], 1 => ['pipe', 'w'], 2 => $this->stderr], $pipes, null, getenv() + $environment);
        if (!is_resource($process)) {
            return self::failed('could not start the child process', $started);
        }
        $output = (string) stream_get_contents($pipes[1]);
        fclose($pipes[1]);
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
        ];
    }
}
