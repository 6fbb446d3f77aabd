<?php

declare(strict_types=1);

require __DIR__ . '/bootstrap.php';

use PhpCryptoBench\Cli\Application;

// mcrypt (deprecated since PHP 7.1) raises E_DEPRECATED on every call, and the symmetric
// experiment times mcrypt on purpose: keep deprecations out, so no handler runs inside a timing.
error_reporting(E_ALL & ~E_DEPRECATED);

// A warning or notice is a bug in a benchmark: fail loudly rather than time a broken path.
set_error_handler(static function (int $severity, string $message, string $file, int $line): bool {
    if ((error_reporting() & $severity) === 0) {
        return false; // silenced with @ where the caller checks the result itself
    }
    throw new ErrorException($message, 0, $severity, $file, $line);
}, E_ALL & ~E_DEPRECATED);

$application = new Application(dirname(__DIR__), STDOUT, STDERR);
exit($application->run($argv));
