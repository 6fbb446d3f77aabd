<?php

declare(strict_types=1);

namespace PhpCryptoBench\Harness;

/**
 * The state of one group sampled in rotation: each case's iteration count, its samples so far, the
 * time it has spent, and whether it goes on. A case that stops takes no more samples, so sample r of
 * every case is still round r.
 */
final class GroupRounds
{
    /** @var list<list<Sample>> */
    public array $samples;
    /** @var list<list<float>> each case's per-operation times, for its CI */
    public array $perOperation;
    /** @var list<bool> */
    private array $open;

    /**
     * @param list<BenchCase> $cases
     * @param list<int> $iterations per case, calibrated
     * @param list<int> $leastSamples per case: it goes on until it has these, target and time or not
     * @param list<int> $spentNs per case, warm-up and calibration so far
     */
    public function __construct(
        public readonly array $cases,
        private readonly array $iterations,
        private readonly array $leastSamples,
        private array $spentNs,
    ) {
        $this->samples = array_fill(0, count($cases), []);
        $this->perOperation = array_fill(0, count($cases), []);
        $this->open = array_fill(0, count($cases), true);
    }

    public function anyOpen(): bool
    {
        return in_array(true, $this->open, true);
    }

    /**
     * One sample of each case still going, starting one case further each round, so no case is always
     * first (after the others' caches) or always last.
     *
     * @param \Closure(BenchCase, int): array{0: int, 1: int, 2: int} $time runs and verifies a case
     *        for that many iterations: the elapsed time it measured, the time the whole took, and the
     *        minor page faults the timed part took
     */
    public function round(int $round, \Closure $time): void
    {
        $count = count($this->cases);
        for ($step = 0; $step < $count; $step++) {
            $i = ($round + $step) % $count;
            if (!$this->open[$i]) {
                continue;
            }
            [$elapsed, $took, $faults] = $time($this->cases[$i], $this->iterations[$i]);
            $this->spentNs[$i] += $took;
            $this->samples[$i][] = new Sample($round, $this->iterations[$i], $elapsed, $faults);
            $this->perOperation[$i][] = $elapsed / $this->iterations[$i];
        }
    }

    /**
     * Stops the cases that have their least samples and are within target (as $withinTarget says),
     * or out of time: a case goes on within its own share of the group's budget, or past it while the
     * group as a whole has time left. So what quiet cases leave goes to noisy ones, and a slow case
     * (an RSA key generation) cannot take the others' share.
     *
     * @param \Closure(list<float>): bool $withinTarget
     * @return list<int> the cases it stopped
     */
    public function stopThoseDone(int $budgetNs, \Closure $withinTarget): array
    {
        $share = intdiv($budgetNs, count($this->cases));
        $groupHasTime = array_sum($this->spentNs) < $budgetNs;
        $stopped = [];
        foreach ($this->open as $i => $going) {
            $short = count($this->samples[$i]) < $this->leastSamples[$i];
            $this->open[$i] = $going && ($short || (($this->spentNs[$i] < $share || $groupHasTime) && !$withinTarget($this->perOperation[$i])));
            if ($going && !$this->open[$i]) {
                $stopped[] = $i;
            }
        }
        return $stopped;
    }

    /** @return list<int> the cases still going (when the rounds end at the profile's maximum) */
    public function stillOpen(): array
    {
        return array_keys(array_filter($this->open));
    }
}
