<?php

declare(strict_types=1);

namespace PhpCryptoBench\Harness;

/**
 * What one experiment's sampling achieved, for its manifest entry: how many cases, how many of
 * them reached the profile's precision target, and per table the key columns by which its cases
 * were sampled in rotation (so that the build may pair sample r of one case with sample r of
 * another that agrees on those columns).
 *
 * A table's columns are recorded only if no two of its groups shared their values (two calls for
 * the same cases): otherwise two cases that agree on them need not have been sampled together.
 */
final class SamplingTally
{
    private int $cases = 0;
    private int $withinTarget = 0;
    /** @var array<string, list<string>> per table, the columns its groups share */
    private array $interleavedBy = [];
    /** @var array<string, array<string, true>> per table, the groups seen, by their values' JSON */
    private array $groups = [];
    /** @var array<string, true> tables with groups that cannot be told apart */
    private array $ambiguous = [];

    public function __construct(
        private readonly float $target,
        private readonly int $minimumSamples,
    ) {
    }

    public function caseMeasured(bool $withinTarget): void
    {
        $this->cases++;
        $this->withinTarget += $withinTarget ? 1 : 0;
    }

    /** @param array<string, int|string> $values the group's values of the interleaving's columns */
    public function groupInterleaved(Interleaving $interleaving, array $values): void
    {
        $table = $interleaving->table;
        ksort($values);
        $group = json_encode($values, JSON_THROW_ON_ERROR);
        if (isset($this->interleavedBy[$table]) && $this->interleavedBy[$table] !== $interleaving->by || isset($this->groups[$table][$group])) {
            $this->ambiguous[$table] = true;
        }
        $this->interleavedBy[$table] = $interleaving->by;
        $this->groups[$table][$group] = true;
    }

    /** Some of the table's cases were measured one after another (too large to hold together): pair none of them. */
    public function notInterleaved(Interleaving $interleaving): void
    {
        $this->ambiguous[$interleaving->table] = true;
    }

    public function cases(): int
    {
        return $this->cases;
    }

    public function withinTarget(): int
    {
        return $this->withinTarget;
    }

    /** @return array{target: float, minimum_samples: int, cases: int, within_target: int, interleaved_by: object} */
    public function toManifest(): array
    {
        return [
            'target' => $this->target,
            'minimum_samples' => $this->minimumSamples,
            'cases' => $this->cases,
            'within_target' => $this->withinTarget,
            // An object even when empty: the schema declares a map of tables.
            'interleaved_by' => (object) array_diff_key($this->interleavedBy, $this->ambiguous),
        ];
    }
}
