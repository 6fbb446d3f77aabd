<?php

declare(strict_types=1);

namespace PhpCryptoBench\Argon2;

use PhpCryptoBench\Exception\VerificationFailed;
use PhpCryptoBench\Harness\JitterCycle;
use PhpCryptoBench\Harness\MedianInterval;
use PhpCryptoBench\Io\CsvTable;

/**
 * bcrypt (password_hash() with PASSWORD_BCRYPT, PHP's PASSWORD_DEFAULT) at costs 10 to 13, timed
 * beside the Argon2 grid so that the page can set them against the same latency budgets. A sample is
 * one hash, as in an Argon2 cell: wall time (hrtime) and CPU time (getrusage), then checked by
 * password_verify() before it counts; as in a cell, a first hash is made and verified untimed. Sampled as the cells are (CellSampling): at least 6 hashes, then
 * more until the median's 95% CI is within ±3 %, the cost's share of the experiment's time is spent
 * (CellShares) or the maximum is reached.
 * In this process: bcrypt uses 4 KiB, so there is no peak memory to keep apart.
 *
 * Under the fake clock the first hash of each cost is still made and verified; the times are modelled
 * (2^cost × FAKE_NS_PER_ROUND, moved by the JitterCycle), so a fake run writes the same rows everywhere.
 * Tests may cap that real hash's cost (TEST_MAX_COST_VARIABLE); the rows stay the model's.
 */
final class BcryptCosts
{
    public const CSV = 'bcrypt.csv';
    /** PHP's default cost before 8.4 (10) and from 8.4 (12), and one step either side of the latter. */
    public const COSTS = [10, 11, 12, 13];
    /** Under the fake clock: 51 ms at cost 10, about a 2020s x86 core's time. */
    public const FAKE_NS_PER_ROUND = 50_000;
    /** PHP's manual's example (password_verify()): a $2y$ hash of cost 10 made elsewhere. */
    public const KNOWN_ANSWER = ['rasmuslerdorf', '$2y$10$.vGA1O9wmRjrwAVXD98HNOgsNpDczlqm3Jq7KnEd1rVAGv3Fykk1a'];
    /**
     * Tests only, and only under the fake clock: PHPCB_TEST_BCRYPT_MAX_COST=4 makes each cost's real
     * hash at most that cost. The rows are modelled either way; the real hashes at costs 10 to 13 and
     * their verification are over a CPU-second of every fake argon2 run.
     */
    public const TEST_MAX_COST_VARIABLE = 'PHPCB_TEST_BCRYPT_MAX_COST';
    /** password_hash() refuses a bcrypt cost below 4. */
    private const LEAST_COST = 4;

    /** The fake clock's time so far: the budget is counted in it. */
    private int $fakeNow = 0;

    public function __construct(
        private readonly bool $fakeClock,
        private readonly JitterCycle $jitter = new JitterCycle(),
        private readonly ?int $fakeClockMaxCost = null,
    ) {
    }

    /** As a run measures bcrypt: under the fake clock, with the tests' cap ($maxCost, TEST_MAX_COST_VARIABLE) if one is set. */
    public static function forRun(bool $fakeClock, string|false $maxCost): self
    {
        return new self($fakeClock, fakeClockMaxCost: $fakeClock && $maxCost !== false && ctype_digit($maxCost) ? (int) $maxCost : null);
    }

    /** The cost of the real hashes made for $cost's rows: $cost itself on the real clock, whatever the cap. */
    public function realHashCost(int $cost): int
    {
        return $this->fakeClock && $this->fakeClockMaxCost !== null ? min($cost, max(self::LEAST_COST, $this->fakeClockMaxCost)) : $cost;
    }

    /**
     * What must hold before bcrypt is timed: the manual's hash verifies (and not for another password),
     * and a hash made here verifies at the cost it names.
     *
     * @return array{known_answer: string, self_test: string}
     * @throws VerificationFailed
     */
    public static function verify(): array
    {
        [$password, $hash] = self::KNOWN_ANSWER;
        if (!password_verify($password, $hash) || password_verify($password . 'x', $hash)) {
            throw VerificationFailed::knownAnswerMismatch('PHP manual, password_verify() example', sprintf('password_verify to accept "%s" and nothing else', $password), 'another answer');
        }
        $made = password_hash(Argon2Hasher::PASSWORD, PASSWORD_BCRYPT, ['cost' => 4]);
        if (!str_starts_with($made, '$2y$04$') || !password_verify(Argon2Hasher::PASSWORD, $made) || password_verify(Argon2Hasher::PASSWORD . 'x', $made)) {
            throw VerificationFailed::operationFailed('password_hash bcrypt self-test', 'its hash did not verify');
        }
        return [
            'known_answer' => sprintf('PHP manual, password_verify(): %s verifies for "%s", not for another password', $hash, $password),
            'self_test' => 'password_hash bcrypt: password_verify accepts its hash, at the cost it names',
        ];
    }

    /**
     * Every cost's samples into $table (bcrypt.csv), each cost drawing on the time the cells draw on:
     * the experiment's share (CellShares, one item per cost, projected by $cost), or without one, the
     * profile's allowance per cell (tools, tests).
     */
    public function measureInto(CsvTable $table, CellSampling $sampling, ?CellShares $shares = null, ?HashCost $cost = null): void
    {
        $budget = $sampling->timeBudget();
        foreach (self::COSTS as $bcryptCost) {
            $started = $this->now();
            $rows = $this->measure($bcryptCost, $sampling->minSamples, $sampling->maxSamples, $shares?->forNext() ?? $budget->forCases(1));
            foreach ($rows as $row) {
                $table->add($row);
            }
            $budget->spent(1, $this->now() - $started);
            $shares?->spent($this->now() - $started, $cost?->bcryptNs($bcryptCost, count($rows)) ?? 0);
        }
    }

    /**
     * The bcrypt items of CellShares, in the order measureInto() takes them: each cost's $hashes hashes
     * (its least, or its most).
     *
     * @return list<int>
     */
    public static function projectedNs(HashCost $cost, int $hashes): array
    {
        return array_map(static fn (int $bcryptCost): int => $cost->bcryptNs($bcryptCost, $hashes), self::COSTS);
    }

    /**
     * At least $minSamples hashes whatever the budget, then more until the CI is within
     * CellSampling::TARGET, the next hash would end past the budget (0: no budget) or $maxSamples are
     * taken, as CellMeasurement samples a cell.
     *
     * @return list<array{cost: int, sample: int, wall_ns: int, cpu_ns: int, verified: bool}>
     * @throws VerificationFailed when a hash does not verify
     */
    public function measure(int $cost, int $minSamples, int $maxSamples, int $budgetNs): array
    {
        $rows = [];
        $walls = [];
        $started = $this->now();
        // As a cell does (CellMeasurement::WARM_UP_HASHES): hashes made and verified before the first
        // timed one. Under the fake clock the first sample makes the real hash instead.
        for ($warmUp = 0; !$this->fakeClock && $warmUp < CellMeasurement::WARM_UP_HASHES; $warmUp++) {
            $this->hashAndVerify($cost);
        }
        for ($sample = 0; $sample < max($minSamples, $maxSamples); $sample++) {
            [$wall, $cpu] = $this->timeOne($cost, $sample);
            $rows[] = ['cost' => $cost, 'sample' => $sample, 'wall_ns' => $wall, 'cpu_ns' => $cpu, 'verified' => true];
            $walls[] = (float) $wall;
            $elapsed = $this->now() - $started;
            if ($budgetNs > 0 && $sample + 1 >= $minSamples && $elapsed + intdiv($elapsed, $sample + 1) > $budgetNs) {
                break;
            }
            if ($sample + 1 >= $minSamples && MedianInterval::of($walls)->relativeHalfWidth() <= CellSampling::TARGET) {
                break;
            }
        }
        return $rows;
    }

    /** @return array{0: int, 1: int} wall and CPU nanoseconds of one verified hash (modelled under the fake clock) */
    private function timeOne(int $cost, int $sample): array
    {
        if ($this->fakeClock) {
            if ($sample === 0) {
                $this->hashAndVerify($cost);
            }
            $wall = $this->jitter->apply((1 << $cost) * self::FAKE_NS_PER_ROUND, $sample);
            $this->fakeNow += $wall;
            return [$wall, $wall];
        }
        $cpu = self::cpuNs();
        $start = hrtime(true);
        $hash = password_hash(Argon2Hasher::PASSWORD, PASSWORD_BCRYPT, ['cost' => $cost]);
        $wall = hrtime(true) - $start;
        $cpu = self::cpuNs() - $cpu;
        self::check($cost, $hash);
        return [$wall, $cpu];
    }

    private function hashAndVerify(int $cost): void
    {
        $made = $this->realHashCost($cost);
        self::check($made, password_hash(Argon2Hasher::PASSWORD, PASSWORD_BCRYPT, ['cost' => $made]));
    }

    private static function check(int $cost, string $hash): void
    {
        $prefix = sprintf('$2y$%02d$', $cost);
        if (!str_starts_with($hash, $prefix) || !password_verify(Argon2Hasher::PASSWORD, $hash)) {
            throw VerificationFailed::operationFailed("password_hash bcrypt cost $cost", sprintf('expected a %s hash that password_verify accepts', $prefix));
        }
    }

    private function now(): int
    {
        return $this->fakeClock ? $this->fakeNow : hrtime(true);
    }

    private static function cpuNs(): int
    {
        $usage = getrusage();
        return ($usage['ru_utime.tv_sec'] + $usage['ru_stime.tv_sec']) * 1_000_000_000 + ($usage['ru_utime.tv_usec'] + $usage['ru_stime.tv_usec']) * 1_000;
    }
}
