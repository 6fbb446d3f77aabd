<?php

declare(strict_types=1);

namespace PhpCryptoBench\Exception;

use LogicException;

/** An experiment class the registry found but cannot use: a mistake in the code, named where it is. */
final class BrokenExperiment extends LogicException implements BenchException
{
    public static function cannotBeBuilt(string $class, string $reason): self
    {
        return new self(sprintf('experiment class %s could not be built by %s::create(): %s', $class, $class, $reason));
    }

    public static function duplicateName(string $name, string $first, string $second): self
    {
        return new self(sprintf('experiment name "%s" is used by both %s and %s; expected one class per name', $name, $first, $second));
    }

    public static function classMissing(string $file, string $class): self
    {
        return new self(sprintf('%s is named like an experiment, so it should declare %s; it does not', $file, $class));
    }
}
