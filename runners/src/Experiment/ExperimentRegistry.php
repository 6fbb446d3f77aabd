<?php

declare(strict_types=1);

namespace PhpCryptoBench\Experiment;

use PhpCryptoBench\Exception\BrokenExperiment;
use PhpCryptoBench\Exception\UsageError;
use ReflectionClass;
use Throwable;

/**
 * The experiments, found rather than listed: every `<Namespace>/<Name>Experiment.php` under a
 * source directory whose class PhpCryptoBench\<Namespace>\<Name>Experiment implements Experiment,
 * built by its static create(ExperimentSetup). Adding an experiment is adding a namespace.
 */
final class ExperimentRegistry
{
    /** @var array<string, Experiment> */
    private array $experiments = [];

    public function __construct(Experiment ...$experiments)
    {
        foreach ($experiments as $experiment) {
            $this->experiments[$experiment->name()] = $experiment;
        }
    }

    /**
     * Every experiment under the source directories, in order of name (so `list`, `run` and the
     * manifest do not depend on the file system's order). Each directory is made loadable first.
     *
     * @throws BrokenExperiment when a file does not declare the class its name promises, an experiment
     *                          cannot be built, or two experiments share a name
     */
    public static function discover(ExperimentSetup $setup, string ...$sourceDirectories): self
    {
        $found = [];
        foreach ($sourceDirectories as $path) {
            $directory = SourceDirectory::register($path);
            foreach ($directory->experimentFiles() as $file) {
                $experiment = self::build($file, $directory->classFor($file), $setup);
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
        ksort($found, SORT_STRING);
        return new self(...array_values($found));
    }

    /** The experiment a file declares; null for anything else named so (the Experiment interface itself, a helper). */
    private static function build(string $file, string $class, ExperimentSetup $setup): ?Experiment
    {
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
            throw BrokenExperiment::cannotBeBuilt($class, $e::class . ': ' . $e->getMessage());
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
     * The experiments a run measures: those $only names, in its order (make bench-repeat rotates it);
     * without it every one, in order of name but those that take what the others leave last
     * (TakesWhatIsLeft).
     *
     * @param list<string>|null $only
     * @return list<Experiment>
     */
    public function select(?array $only): array
    {
        if ($only === null) {
            $all = array_values($this->experiments);
            // usort is stable (PHP 8): the others keep their order by name.
            usort($all, static fn (Experiment $a, Experiment $b): int => ($a instanceof TakesWhatIsLeft) <=> ($b instanceof TakesWhatIsLeft));
            return $all;
        }
        return array_map(fn (string $name): Experiment => $this->get($name), $only);
    }
}
