<?php

declare(strict_types=1);

namespace PhpCryptoBench\Tests\Support;

use PhpCryptoBench\Harness\BenchCase;
use PhpCryptoBench\Harness\Timer;

/**
 * A fake clock that behaves like a noisy machine, reproducibly: each timing is the case's model
 * (ns per iteration, by its `algorithm` key) times a log-normal noise drawn from a seeded stream,
 * times a drift that grows with the time spent so far (the machine slowing down, e.g. a neighbour
 * warming up), times a slowdown (a slower host of the pool). The work still runs; time is only what
 * this clock says.
 */
final class NoisyTimer implements Timer
{
    private int $nowNs = 0;
    private int $draws = 0;

    /**
     * @param array<string, int> $nsPerIteration by the case's `algorithm` key
     * @param float|array<string, float> $sigma the noise's spread, the standard deviation of its
     *        logarithm (0.02 is about ±2 %): for every case, or by `algorithm`
     */
    public function __construct(
        private readonly array $nsPerIteration,
        private readonly float|array $sigma,
        /** How much slower the machine gets per second of this clock: 0.5 is +50 % after one second. */
        private readonly float $driftPerSecond = 0.0,
        private readonly int $seed = 16,
        /** How much slower this machine is than the model: 3.0 is a host that takes three times as long. */
        private readonly float $slowdown = 1.0,
        /**
         * What each run costs besides its timed part, as a share of it: its verification (every run is
         * verified before its sample counts), on the clock but not in the sample.
         */
        private readonly float $untimedShare = 0.0,
    ) {
    }

    /** Work outside any case that takes the same time on every host (`openssl speed`'s seconds). */
    public function advance(int $ns): void
    {
        $this->nowNs += max(0, $ns);
    }

    /** Work outside any case that the host's speed sets (a verification, a key generation): $modelNs on the model's host. */
    public function advanceModelled(int $modelNs): void
    {
        $this->advance((int) round($modelNs * $this->slowdown));
    }

    public function slowdown(): float
    {
        return $this->slowdown;
    }

    public function time(BenchCase $case, int $iterations): int
    {
        $case->run($iterations);
        $algorithm = (string) $case->key()['algorithm'];
        $model = $iterations * $this->nsPerIteration[$algorithm] * $this->slowdown;
        $sigma = is_array($this->sigma) ? $this->sigma[$algorithm] : $this->sigma;
        $drift = 1.0 + $this->driftPerSecond * $this->nowNs / 1e9;
        $elapsed = max(1, (int) round($model * $drift * exp($sigma * $this->gaussian())));
        $this->nowNs += $elapsed + (int) round($elapsed * $this->untimedShare);
        return $elapsed;
    }

    public function now(): int
    {
        return $this->nowNs;
    }

    public function minorFaults(): int
    {
        return 0;
    }

    /** A modelled clock, as FakeTimer's: a run on it records `fake` and sleeps through no load window. */
    public function name(): string
    {
        return 'fake';
    }

    /** A standard normal draw (Box–Muller) from two uniforms of the seeded stream. */
    private function gaussian(): float
    {
        return sqrt(-2.0 * log($this->uniform())) * cos(2.0 * M_PI * $this->uniform());
    }

    /** Uniform on (0, 1): 52 bits of SHA-256 of the seed and the draw's number. */
    private function uniform(): float
    {
        $bits = hexdec(substr(hash('sha256', $this->seed . ':' . $this->draws++), 0, 13));
        return ($bits + 0.5) / 2 ** 52;
    }
}
