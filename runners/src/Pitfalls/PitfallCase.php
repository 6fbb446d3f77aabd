<?php

declare(strict_types=1);

namespace PhpCryptoBench\Pitfalls;

use Closure;
use PhpCryptoBench\Exception\VerificationFailed;
use PhpCryptoBench\Harness\BenchCase;

/**
 * One variant of a pitfall: $operation does the work once and returns its result; $check says
 * what is wrong with a result (null: nothing). Every timed run's last result is checked.
 * `units` is how many of the pitfall's operations one call does (64 fields of a record, say).
 */
final class PitfallCase implements BenchCase
{
    private mixed $last = null;
    private bool $ran = false;

    /**
     * @param Closure(): mixed $operation
     * @param Closure(mixed): ?string $check
     */
    public function __construct(
        public readonly string $pitfall,
        public readonly string $variant,
        private readonly Closure $operation,
        private readonly Closure $check,
        public readonly int $units = 1,
        private readonly int $bytes = 0,
    ) {
    }

    /** `algorithm` is for the fake clock, whose cost model reads it (FakeTimer); the CSV's columns come from the experiment. */
    public function key(): array
    {
        return ['pitfall' => $this->pitfall, 'variant' => $this->variant, 'algorithm' => $this->pitfall . '/' . $this->variant];
    }

    public function label(): string
    {
        return $this->pitfall . ' ' . $this->variant;
    }

    public function bytesPerIteration(): int
    {
        return $this->bytes;
    }

    public function run(int $iterations): void
    {
        $operation = $this->operation;
        for ($i = 0; $i < $iterations; $i++) {
            $this->last = $operation();
        }
        $this->ran = $iterations > 0;
    }

    /** Runs the operation once, outside any timing, and returns its checked result. */
    public function once(): mixed
    {
        $this->run(1);
        $this->verifyLastRun();
        return $this->last;
    }

    public function verifyLastRun(): void
    {
        $problem = $this->ran ? ($this->check)($this->last) : 'expected a run, got none';
        if ($problem !== null) {
            throw VerificationFailed::operationFailed($this->label(), $problem);
        }
    }
}
