<?php

declare(strict_types=1);

require dirname(__DIR__) . '/bootstrap.php';

spl_autoload_register(static function (string $class): void {
    $prefix = 'PhpCryptoBench\\Tests\\';
    if (str_starts_with($class, $prefix)) {
        $file = __DIR__ . '/' . str_replace('\\', '/', substr($class, strlen($prefix))) . '.php';
        if (is_file($file)) {
            require $file;
        }
    }
});

const REPOSITORY = __DIR__ . '/../..';

require __DIR__ . '/Support/jws-functions.php';
