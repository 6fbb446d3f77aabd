<?php

declare(strict_types=1);

namespace PhpCryptoBench\Tests\Support;

use PhpCryptoBench\Exception\VerificationFailed;
use PhpCryptoBench\Harness\BenchCase;

/** A case that counts its work and can be told to produce wrong output from some run on. */
final class CountingCase implements BenchCase
{
    public int $iterationsRun = 0;
    public int $runs = 0;
    public int $verifications = 0;
    /** @var list<string> the algorithm of every run of any CountingCase, in order (tests reset it) */
    public static array $order = [];

    public function __construct(
        private readonly int $bytes = 1024,
        private readonly ?int $breakOnRun = null,
        private readonly string $algorithm = 'counting',
    ) {
    }

    public function key(): array
    {
        return ['algorithm' => $this->algorithm, 'payload_bytes' => $this->bytes];
    }

    public function label(): string
    {
        return 'counting case';
    }

    public function bytesPerIteration(): int
    {
        return $this->bytes;
    }

    public function run(int $iterations): void
    {
        $this->runs++;
        $this->iterationsRun += $iterations;
        self::$order[] = $this->algorithm;
    }

    public function verifyLastRun(): void
    {
        $this->verifications++;
        if ($this->breakOnRun !== null && $this->runs >= $this->breakOnRun) {
            throw VerificationFailed::roundTripMismatch($this->label(), 16, 15);
        }
    }
}
