<?php

declare(strict_types=1);

namespace PhpCryptoBench\Experiment;

use PhpCryptoBench\Exception\BrokenExperiment;
use PhpCryptoBench\Exception\UsageError;
use ReflectionClass;
use Throwable;

/**
 * The experiments, found rather than listed: every `<Namespace>/<Name>Experiment.php` under the
 * source directory whose class implements Experiment. Adding an experiment is adding a namespace.
 */
final class ExperimentRegistry
{
    private const NAMESPACE_PREFIX = 'PhpCryptoBench\\';

    /** @var array<string, Experiment> */
    private array $experiments = [];

    public function __construct(Experiment ...$experiments)
    {
        foreach ($experiments as $experiment) {
            $this->experiments[$experiment->name()] = $experiment;
        }
    }

    /**
     * Every experiment under the source directories, in order of name.
     *
     * @throws BrokenExperiment when a file does not declare the class its name promises, an experiment
     *                          cannot be built, or two experiments share a name
     */
    public static function discover(ExperimentSetup $setup, string ...$sourceDirectories): self
    {
        $found = [];
        foreach ($sourceDirectories as $directory) {
            foreach (glob($directory . '/*/*Experiment.php') ?: [] as $file) {
                $experiment = self::build($file, $setup);
                if ($experiment === null) {
                    continue;
                }
                $name = $experiment->name();
                if (isset($found[$name])) {
                    throw BrokenExperiment::duplicateName($name, $found[$name]::class, $experiment::class);
                }
                $found[$name] = $experiment;
            }
        }
        ksort($found);
        return new self(...array_values($found));
    }

    /** The experiment a file declares; null for anything else named so (the Experiment interface itself). */
    private static function build(string $file, ExperimentSetup $setup): ?Experiment
    {
        $class = self::NAMESPACE_PREFIX . basename(dirname($file)) . '\\' . basename($file, '.php');
        if (!class_exists($class) && !interface_exists($class)) {
            // Outside the autoloaded tree (another source directory): the file declares the class.
            require_once $file;
        }
        if (!class_exists($class) && !interface_exists($class)) {
            throw BrokenExperiment::classMissing($file, $class);
        }
        $reflection = new ReflectionClass($class);
        if (!$reflection->isInstantiable() || !$reflection->implementsInterface(Experiment::class)) {
            return null;
        }
        try {
            return $class::create($setup);
        } catch (Throwable $e) {
            throw BrokenExperiment::cannotBeBuilt($class, $e->getMessage());
        }
    }

    /** @return list<string> */
    public function names(): array
    {
        return array_keys($this->experiments);
    }

    public function get(string $name): Experiment
    {
        return $this->experiments[$name] ?? throw UsageError::unknownExperiment($name, $this->names());
    }

    /**
     * @param list<string>|null $only
     * @return list<Experiment>
     */
    public function select(?array $only): array
    {
        if ($only === null) {
            return array_values($this->experiments);
        }
        return array_map(fn (string $name): Experiment => $this->get($name), $only);
    }
}
