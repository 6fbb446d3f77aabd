<?php

declare(strict_types=1);

// No Composer here (no Packagist on the build machines): a minimal PSR-4 loader.
spl_autoload_register(static function (string $class): void {
    $prefix = 'PhpCryptoBench\\';
    if (!str_starts_with($class, $prefix)) {
        return;
    }
    $file = __DIR__ . '/src/' . str_replace('\\', '/', substr($class, strlen($prefix))) . '.php';
    if (is_file($file)) {
        require $file;
    }
});
