<?php

declare(strict_types=1);

namespace PhpCryptoBench\Exception;

use Throwable;

/** Marker for every exception the runner throws on purpose; anything else is a bug. */
interface BenchException extends Throwable
{
}
