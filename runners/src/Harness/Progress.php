<?php

declare(strict_types=1);

namespace PhpCryptoBench\Harness;

/** Progress lines with an ETA on stderr (or any stream), so stdout carries only results. */
final class Progress
{
    private int $total = 0;
    private int $done = 0;
    private int $startNs = 0;
    private string $experiment = '';

    /** @param resource $stream */
    public function __construct(private $stream)
    {
    }

    public function message(string $text): void
    {
        fwrite($this->stream, $text . PHP_EOL);
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
        $this->startNs = hrtime(true);
        $estimate = $estimateSeconds > 0 ? sprintf(', estimated %s%s', $lowerBound ? 'at least ' : '', self::clock($estimateSeconds)) : '';
        $this->message(sprintf('[%s] %d cases%s', $experiment, $total, $estimate));
    }

    public function advance(string $label): void
    {
        $this->done++;
        $elapsedS = (hrtime(true) - $this->startNs) / 1e9;
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
