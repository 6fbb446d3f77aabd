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
    private int $outOfTime = 0;
    private int $spentNs = 0;
    private int $beyondLeastNs = 0;
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

    /** @param bool $outOfTime it stopped short of the target because its time ran out */
    public function caseMeasured(bool $withinTarget, bool $outOfTime = false): void
    {
        $this->cases++;
        $this->withinTarget += $withinTarget ? 1 : 0;
        $this->outOfTime += !$withinTarget && $outOfTime ? 1 : 0;
    }

    /**
     * A group's sampling took $ns (warm-up and calibration included; later rounds of counted cases
     * too), $beyondLeastNs of it in samples past the cases' least samples: what the budget decided.
     */
    public function spent(int $ns, int $beyondLeastNs = 0): void
    {
        $this->spentNs += $ns;
        $this->beyondLeastNs += $beyondLeastNs;
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

    /** The cases that stopped short of the target because their time ran out (the others short of it reached the profile's maximum samples). */
    public function outOfTime(): int
    {
        return $this->outOfTime;
    }

    /** What the experiment's sampling took, on the timer's clock. */
    public function spentNs(): int
    {
        return $this->spentNs;
    }

    /** What of it went to samples past the cases' least samples (the rest is every case's floor). */
    public function beyondLeastNs(): int
    {
        return $this->beyondLeastNs;
    }

    /**
     * One line for stderr: "sampled 137 cases in 0:26 (0:01 of it past their least samples): 122
     * within ±3 %, 15 stopped short when their time ran out".
     */
    public function summary(): string
    {
        $short = $this->cases - $this->withinTarget;
        return sprintf(
            'sampled %s case%s in %s (%s of it past their least samples): %s within ±%s %%%s',
            number_format($this->cases),
            $this->cases === 1 ? '' : 's',
            Progress::clock($this->spentNs / 1e9),
            Progress::clock($this->beyondLeastNs / 1e9),
            number_format($this->withinTarget),
            rtrim(rtrim(sprintf('%.2f', 100 * $this->target), '0'), '.'),
            $short === 0 ? '' : sprintf(', %s stopped short when their time ran out%s', number_format($this->outOfTime), $short > $this->outOfTime ? sprintf(', %s at the profile\'s most samples', number_format($short - $this->outOfTime)) : ''),
        );
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
