<?php

declare(strict_types=1);

namespace PhpCryptoBench\Experiment;

/**
 * A directory laid out like runners/src (PSR-4: PhpCryptoBench\Foo\Bar in Foo/Bar.php), made
 * loadable. The bootstrap loads runners/src itself; another directory (an experiment kept outside
 * the tree, a test fixture) is registered here, so that its experiment's helper classes load
 * as well as the experiment.
 */
final class SourceDirectory
{
    private const NAMESPACE_PREFIX = 'PhpCryptoBench\\';

    /** @var array<string, true> directories already given an autoloader in this process */
    private static array $registered = [];

    private function __construct(public readonly string $path)
    {
    }

    public static function register(string $path): self
    {
        $directory = new self(rtrim($path, '/'));
        $key = realpath($directory->path) ?: $directory->path;
        if (!isset(self::$registered[$key])) {
            self::$registered[$key] = true;
            spl_autoload_register($directory->load(...));
        }
        return $directory;
    }

    /** The class a file under this directory should declare: Foo/BarExperiment.php holds PhpCryptoBench\Foo\BarExperiment. */
    public function classFor(string $file): string
    {
        $relative = substr($file, strlen($this->path) + 1, -strlen('.php'));
        return self::NAMESPACE_PREFIX . str_replace('/', '\\', $relative);
    }

    /** @return list<string> the files named like an experiment: <Namespace>/<Name>Experiment.php */
    public function experimentFiles(): array
    {
        return glob($this->path . '/*/*Experiment.php') ?: [];
    }

    private function load(string $class): void
    {
        if (!str_starts_with($class, self::NAMESPACE_PREFIX)) {
            return;
        }
        $file = $this->path . '/' . str_replace('\\', '/', substr($class, strlen(self::NAMESPACE_PREFIX))) . '.php';
        if (is_file($file)) {
            // Once only: a file that does not declare the class it is named for must not be loaded twice.
            require_once $file;
        }
    }
}
