<?php

declare(strict_types=1);

namespace PhpCryptoBench\Run;

/**
 * A child process must not outlive the runner that started it, nor write into the run after it is
 * gone: `kill -9` of the runner ends its children too, and `--resume` measures again what they had
 * not reported. Two guards, each enough on its own:
 *
 * - guard(): the command is started through `setpriv --pdeathsig KILL` (util-linux, Linux), so the
 *   kernel sends SIGKILL to the child the moment its parent dies, even inside a long C call
 *   (a 1 GiB Argon2 hash) or in a program that is not PHP (the argon2 CLI).
 * - watch(): the parent gives the child a pipe as stdin and never writes to it; when the parent
 *   dies the pipe reaches end of file. The child checks once a second (SIGALRM, when pcntl is
 *   there) and before every file it writes (AtomicFile), and exits without writing.
 *
 * PHPCB_PARENT_GUARD=pdeathsig|pipe|both|none chooses the guards (default both; tests use one at
 * a time to show that each works); PHPCB_PARENT_PIPE=stdin tells the child its stdin is that pipe.
 */
final class ParentWatch
{
    public const PIPE_VARIABLE = 'PHPCB_PARENT_PIPE';
    public const GUARD_VARIABLE = 'PHPCB_PARENT_GUARD';
    /** The exit status of a child that stopped because its parent was gone. */
    public const EXIT_ORPHANED = 3;
    private const SETPRIV_PATHS = ['/usr/bin/setpriv', '/bin/setpriv', '/usr/sbin/setpriv', '/sbin/setpriv'];

    private static bool $watching = false;
    private static ?string $setpriv = null;
    private static bool $setprivProbed = false;

    /**
     * $command started so that it dies with this process: prefixed with setpriv where it can set
     * the parent-death signal.
     *
     * @param list<string> $command
     * @return list<string>
     */
    public static function guard(array $command): array
    {
        if (!in_array(self::mode(), ['both', 'pdeathsig'], true)) {
            return $command;
        }
        $setpriv = self::setpriv();
        return $setpriv === null ? $command : [$setpriv, '--pdeathsig', 'KILL', '--', ...$command];
    }

    /**
     * The variables a child gets on top of $environment so that it watches its stdin.
     *
     * @param array<string, string> $environment
     * @return array<string, string>
     */
    public static function childEnvironment(array $environment): array
    {
        return in_array(self::mode(), ['both', 'pipe'], true) ? [self::PIPE_VARIABLE => 'stdin'] + $environment : $environment;
    }

    /**
     * In the child: watch stdin when the parent said it is the parent's pipe. With $everySecond, a
     * SIGALRM checks it once a second; without, the child checks between its units of work
     * (exitIfParentGone): an Argon2 cell that starts the argon2 CLI was killed by SIGALRM now and then
     * (status 14, one cell in a few hundred), a signal it had asked for and no longer caught.
     */
    public static function watchIfAsked(bool $everySecond = true): void
    {
        if (getenv(self::PIPE_VARIABLE) !== 'stdin' || self::$watching) {
            return;
        }
        // Our own children get their own pipe from us, never this one.
        putenv(self::PIPE_VARIABLE);
        self::$watching = true;
        stream_set_blocking(STDIN, false);
        if ($everySecond && function_exists('pcntl_async_signals') && function_exists('pcntl_signal') && function_exists('pcntl_alarm')) {
            pcntl_async_signals(true);
            pcntl_signal(SIGALRM, static function (): void {
                self::exitIfParentGone();
                pcntl_alarm(1);
            });
            pcntl_alarm(1);
        }
    }

    /** Exits (status EXIT_ORPHANED, writing nothing more) when this child's parent is gone. */
    public static function exitIfParentGone(): void
    {
        if (self::$watching && self::parentGone()) {
            exit(self::EXIT_ORPHANED);
        }
    }

    /** Whether this process watches a parent that is gone (always false in a process that does not watch). */
    public static function orphaned(): bool
    {
        return self::$watching && self::parentGone();
    }

    private static function parentGone(): bool
    {
        $read = [STDIN];
        $write = $except = null;
        $ready = @stream_select($read, $write, $except, 0);
        if ($ready !== 1) {
            return false; // nothing to read (or interrupted): the parent still holds the pipe open
        }
        // The parent never writes: a readable pipe is one at end of file.
        @fread(STDIN, 8192);
        return feof(STDIN);
    }

    private static function mode(): string
    {
        $mode = getenv(self::GUARD_VARIABLE);
        return is_string($mode) && in_array($mode, ['both', 'pdeathsig', 'pipe', 'none'], true) ? $mode : 'both';
    }

    /** setpriv, when it is there and supports --pdeathsig (util-linux 2.33+). */
    private static function setpriv(): ?string
    {
        if (!self::$setprivProbed) {
            self::$setprivProbed = true;
            foreach (PHP_OS_FAMILY === 'Linux' ? self::SETPRIV_PATHS : [] as $path) {
                if (is_executable($path)) {
                    $output = [];
                    $status = 1;
                    @exec(escapeshellarg($path) . ' --pdeathsig KILL -- true 2>/dev/null', $output, $status);
                    self::$setpriv = $status === 0 ? $path : null;
                    break;
                }
            }
        }
        return self::$setpriv;
    }
}
