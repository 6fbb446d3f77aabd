<?php

declare(strict_types=1);

namespace PhpCryptoBench\Run;

use DateTimeImmutable;

/** YYYYMMDDTHHMMZ-<machine name>-php<major.minor>: directory names sort by time. */
final class RunId
{
    public static function make(DateTimeImmutable $startedUtc, string $machine, string $phpVersion): string
    {
        [$major, $minor] = explode('.', $phpVersion) + [1 => '0'];
        return sprintf('%s-%s-php%s.%s', $startedUtc->format('Ymd\THi\Z'), $machine, $major, $minor);
    }
}
