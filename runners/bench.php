<?php

declare(strict_types=1);

require __DIR__ . '/bootstrap.php';

use PhpCryptoBench\Cli\Application;

// A warning or notice is a bug in a benchmark: fail loudly rather than time a broken path.
set_error_handler(static function (int $severity, string $message, string $file, int $line): bool {
    throw new ErrorException($message, 0, $severity, $file, $line);
});

$application = new Application(dirname(__DIR__), STDOUT, STDERR);
exit($application->run($argv));
