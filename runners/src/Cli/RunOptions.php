<?php

declare(strict_types=1);

namespace PhpCryptoBench\Cli;

use PhpCryptoBench\Exception\UsageError;

/** Options of `bench.php run`, parsed strictly: anything unknown is an error, never ignored. */
final class RunOptions
{
    /** @param list<string>|null $only */
    private function __construct(
        public readonly string $profile,
        public readonly ?array $only,
        public readonly ?string $out,
        public readonly bool $resume,
        public readonly bool $fakeClock,
        /** --budget-seconds in nanoseconds; null: the profile's budget */
        public readonly ?int $budgetNs = null,
        /** --ends-by in seconds since the epoch: the experiments' budget is at most what is left until then */
        public readonly ?int $endsBy = null,
        /** false with --no-native: the native tools are left out (Profile::$native) */
        public readonly bool $native = true,
    ) {
    }

    /**
     * @param list<string> $arguments the arguments after "run"
     * @param list<string> $knownExperiments
     */
    public static function parse(array $arguments, array $knownExperiments, bool $fakeClockFromEnvironment): self
    {
        $profile = 'quick';
        $only = null;
        $out = null;
        $resume = false;
        $fakeClock = $fakeClockFromEnvironment;
        $budgetNs = null;
        $endsBy = null;
        $native = true;
        while ($arguments !== []) {
            $argument = array_shift($arguments);
            [$name, $inline] = str_contains($argument, '=') && str_starts_with($argument, '--')
                ? explode('=', $argument, 2)
                : [$argument, null];
            $value = static function () use ($name, $inline, &$arguments): string {
                $given = $inline ?? array_shift($arguments);
                if ($given === null || $given === '' || str_starts_with($given, '--')) {
                    throw UsageError::missingValue($name);
                }
                return $given;
            };
            match ($name) {
                '--profile' => $profile = $value(),
                '--only' => $only = self::experimentList($value(), $knownExperiments),
                '--out' => $out = $value(),
                '--resume' => $resume = true,
                '--fake-clock' => $fakeClock = true,
                '--budget-seconds' => $budgetNs = self::budgetNs($value()),
                '--ends-by' => $endsBy = self::endsBy($value()),
                '--no-native' => $native = false,
                default => throw UsageError::unknownOption($argument),
            };
        }
        if (!in_array($profile, ['quick', 'full'], true)) {
            throw UsageError::invalidProfile($profile);
        }
        if ($resume && $out === null) {
            throw UsageError::resumeWithoutOut();
        }
        if ($endsBy !== null && $resume) {
            // A resumed run's budget is the whole run's, part of it spent before: a time of day says nothing of that part.
            throw UsageError::endsByWithResume();
        }
        return new self($profile, $only, $out, $resume, $fakeClock, $budgetNs, $endsBy, $native);
    }

    /** Whole seconds since the epoch (`date +%s`). */
    private static function endsBy(string $seconds): int
    {
        if (preg_match('/^[0-9]{1,12}$/', $seconds) !== 1) {
            throw UsageError::invalidEndsBy($seconds);
        }
        return (int) $seconds;
    }

    /** Seconds, whole or decimal ("210", "54.321"), 0 or more, as nanoseconds. */
    private static function budgetNs(string $seconds): int
    {
        if (preg_match('/^[0-9]{1,7}(\.[0-9]{1,9})?$/', $seconds) !== 1) {
            throw UsageError::invalidBudget($seconds);
        }
        return (int) round((float) $seconds * 1e9);
    }

    /**
     * @param list<string> $known
     * @return list<string>
     */
    private static function experimentList(string $list, array $known): array
    {
        $names = array_values(array_unique(array_filter(array_map('trim', explode(',', $list)), 'strlen')));
        foreach ($names as $name) {
            if (!in_array($name, $known, true)) {
                throw UsageError::unknownExperiment($name, $known);
            }
        }
        return $names;
    }
}
