<?php

declare(strict_types=1);

namespace PhpCryptoBench\Tests\Support;

use PHPUnit\Framework\Assert;

/** A command a test needs done (openssl genpkey, dgst): it fails the test with the command's output unless it exits 0. */
final class MustRun
{
    /** @param list<string> $command */
    public static function command(array $command): void
    {
        $process = proc_open($command, [1 => ['pipe', 'w'], 2 => ['pipe', 'w']], $pipes);
        Assert::assertIsResource($process);
        $output = stream_get_contents($pipes[1]) . stream_get_contents($pipes[2]);
        fclose($pipes[1]);
        fclose($pipes[2]);
        Assert::assertSame(0, proc_close($process), implode(' ', $command) . ': ' . $output);
    }
}
