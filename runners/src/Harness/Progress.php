<?php

declare(strict_types=1);

namespace PhpCryptoBench\Harness;

/** Progress lines with an ETA on stderr (or any stream), so stdout carries only results. */
final class Progress
{
    /** A group sampled in rotation says it is still going at most this often (and only when no other line did). */
    public const STILL_SAMPLING_EVERY_S = 30;

    private int $total = 0;
    private int $done = 0;
    private int $startNs = 0;
    private int $lastLineNs = 0;
    private string $experiment = '';
    /** @var \Closure(): int */
    private readonly \Closure $clockNs;

    /**
     * @param resource $stream
     * @param (\Closure(): int)|null $clockNs nanoseconds now (tests pass a fake clock's); hrtime by default
     */
    public function __construct(private $stream, ?\Closure $clockNs = null)
    {
        $this->clockNs = $clockNs ?? static fn (): int => hrtime(true);
    }

    public function message(string $text): void
    {
        fwrite($this->stream, $text . PHP_EOL);
        $this->lastLineNs = ($this->clockNs)();
    }

    /**
     * After a round of a group sampled in rotation: a line when nothing was said for
     * STILL_SAMPLING_EVERY_S, so a large group of slow cases (every OpenSSL cipher at 2 MiB, where
     * minutes pass before the first case stops) does not look hung.
     */
    public function stillSampling(int $open, int $cases, int $rounds): void
    {
        $now = ($this->clockNs)();
        if ($now - $this->lastLineNs < self::STILL_SAMPLING_EVERY_S * 1_000_000_000) {
            return;
        }
        $this->message(sprintf(
            '[%s] %d/%d still sampling: %d of the %d cases of this group after %d round%s  elapsed %s',
            $this->experiment,
            $this->done,
            $this->total,
            $open,
            $cases,
            $rounds,
            $rounds === 1 ? '' : 's',
            self::clock(($now - $this->startNs) / 1e9),
        ));
    }

    /**
     * @param float $estimateSeconds printed before the work starts
     * @param bool $lowerBound whether the estimate counts only the least work (minimum samples), or models it all
     */
    public function begin(string $experiment, int $total, float $estimateSeconds = 0.0, bool $lowerBound = true): void
    {
        $this->experiment = $experiment;
        $this->total = $total;
        $this->done = 0;
        $this->startNs = ($this->clockNs)();
        $estimate = $estimateSeconds > 0 ? sprintf(', estimated %s%s', $lowerBound ? 'at least ' : '', self::clock($estimateSeconds)) : '';
        $this->message(sprintf('[%s] %d cases%s', $experiment, $total, $estimate));
    }

    public function advance(string $label): void
    {
        $this->done++;
        $elapsedS = (($this->clockNs)() - $this->startNs) / 1e9;
        $remaining = $this->done > 0 ? $elapsedS / $this->done * ($this->total - $this->done) : 0.0;
        $this->message(sprintf(
            '[%s] %d/%d %s  elapsed %s  ETA %s',
            $this->experiment,
            $this->done,
            $this->total,
            $label,
            self::clock($elapsedS),
            self::clock($remaining),
        ));
    }

    public static function clock(float $seconds): string
    {
        $whole = (int) round($seconds);
        return sprintf('%d:%02d', intdiv($whole, 60), $whole % 60);
    }
}
