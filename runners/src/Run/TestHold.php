<?php

declare(strict_types=1);

namespace PhpCryptoBench\Run;

/**
 * Tests only: a child process that waits before it measures, so a test can kill its runner while the
 * child is surely at work (tests/Run/KilledChildTest.php). `VARIABLE=subject:seconds` holds the child
 * whose subject it names; any other value, or none, holds nothing. The wait still exits when the
 * parent is gone (ParentWatch), as the measurement it stands for would.
 */
final class TestHold
{
    /** An Argon2 grid cell, named interface/variant (runners/argon2-cell.php). */
    public const CELL_VARIABLE = 'PHPCB_TEST_HOLD_CELL';
    /** An experiment measured in a child PHP (`bench.php child NAME`), only under the fake clock. */
    public const CHILD_VARIABLE = 'PHPCB_TEST_HOLD_CHILD';

    public static function holdIfAsked(string $variable, string $subject): void
    {
        $seconds = self::secondsFor(getenv($variable), $subject);
        if ($seconds === 0) {
            return;
        }
        $until = hrtime(true) + $seconds * 1_000_000_000;
        while (hrtime(true) < $until) {
            ParentWatch::exitIfParentGone();
            usleep(50_000);
        }
    }

    /** How long `subject:seconds` holds $subject: 0 for another subject or a malformed value. */
    public static function secondsFor(string|false $value, string $subject): int
    {
        if (!is_string($value) || preg_match('#^([a-z0-9_/]+):(\d+)$#D', $value, $match) !== 1 || $match[1] !== $subject) {
            return 0;
        }
        return (int) $match[2];
    }
}
