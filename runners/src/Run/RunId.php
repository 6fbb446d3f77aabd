<?php

declare(strict_types=1);

namespace PhpCryptoBench\Run;

use DateTimeImmutable;
use PhpCryptoBench\Environment\Stack;

/**
 * YYYYMMDDTHHMMZ-<machine name>-php<major.minor>[-<stack>]: directory names sort by time. A run on
 * the host's own PHP carries no stack; a run in another stack (a root filesystem of Debian 13, say)
 * carries its name, so that two stacks with the same PHP never share an id.
 */
final class RunId
{
    public static function make(DateTimeImmutable $startedUtc, string $machine, string $phpVersion, string $stack = Stack::HOST): string
    {
        [$major, $minor] = explode('.', $phpVersion) + [1 => '0'];
        $id = sprintf('%s-%s-php%s.%s', $startedUtc->format('Ymd\THi\Z'), $machine, $major, $minor);
        return $stack === Stack::HOST ? $id : $id . '-' . $stack;
    }
}
