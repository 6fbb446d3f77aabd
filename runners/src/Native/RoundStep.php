<?php

declare(strict_types=1);

namespace PhpCryptoBench\Native;

/** One measurement taken once per round of an interleaved comparison (InterleavedRounds). */
interface RoundStep
{
    /** A short label for progress lines. */
    public function label(): string;

    /** A lower bound of one measurement's duration, for the estimate printed before the rounds. */
    public function estimatedSeconds(): float;

    /** Measures once for round $round (0-based) and records the result. */
    public function measure(int $round): void;

    /** Why this step gave no result (it is then skipped in later rounds), or null. */
    public function gap(): ?string;
}
