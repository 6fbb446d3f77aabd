<?php

declare(strict_types=1);

namespace PhpCryptoBench\Exception;

use InvalidArgumentException;

final class UsageError extends InvalidArgumentException implements BenchException
{
    public static function unknownCommand(string $given): self
    {
        return new self(sprintf('unknown command "%s"; expected one of: run, list, --help', $given));
    }

    public static function unknownOption(string $given): self
    {
        return new self(sprintf('unknown option "%s"; see --help', $given));
    }

    public static function missingValue(string $option): self
    {
        return new self(sprintf('option %s expects a value, none given', $option));
    }

    public static function invalidProfile(string $given): self
    {
        return new self(sprintf('unknown profile "%s"; expected quick or full', $given));
    }

    /** @param list<string> $known */
    public static function unknownExperiment(string $given, array $known): self
    {
        return new self(sprintf('unknown experiment "%s"; expected one of: %s', $given, implode(', ', $known)));
    }

    public static function invalidBudget(string $given): self
    {
        return new self(sprintf('--budget-seconds expects a number of seconds, 0 or more; got "%s"', $given));
    }

    public static function invalidEndsBy(string $given): self
    {
        return new self(sprintf('--ends-by expects a time as whole seconds since the epoch (date +%%s); got "%s"', $given));
    }

    public static function endsByWithResume(): self
    {
        return new self('--ends-by cannot be given with --resume: a resumed run keeps its budget (--budget-seconds), less what its recorded experiments took');
    }

    public static function resumeWithoutOut(): self
    {
        return new self('--resume needs --out DIR naming the run to finish');
    }

    public static function badStackName(string $given, int $maxChars): self
    {
        return new self(sprintf(
            'PHPCB_STACK must be a stack name of at most %d characters: lower-case letters and digits, joined by "-" or "."; got "%s"',
            $maxChars,
            $given,
        ));
    }

    public static function badFakeClockStart(string $given): self
    {
        return new self(sprintf('PHPCB_FAKE_CLOCK_START must be a UTC time YYYY-MM-DDTHH:MM:SS, got "%s"', $given));
    }
}
