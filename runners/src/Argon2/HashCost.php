<?php

declare(strict_types=1);

namespace PhpCryptoBench\Argon2;

/**
 * What Argon2's and bcrypt's work costs on this host, projected from probes: a 16 MiB and a 64 MiB
 * one-pass Argon2id cell process (their hashes, and what a process took besides), and one bcrypt hash
 * at cost 8. Argon2's cost per KiB-pass grows with the memory once it leaves the caches (64 MiB took
 * 2.7 times 16 MiB's per KiB-pass on amd-epyc-zen5): between the probes it is interpolated on the
 * memory's logarithm, outside them it is the nearer probe's. bcrypt doubles per cost. What a cell takes
 * in all: its process, its untimed first hash, and its timed ones, each verified by a second hash
 * (password_verify: verification is counted, never skipped). Under the fake clock only the timed
 * hashes take (modelled) time, as ModelledClock and BcryptCosts count it.
 */
final class HashCost
{
    public const PROBE_MIB = 16;
    public const LARGE_PROBE_MIB = 64;
    public const PROBE_HASHES = 3;
    public const BCRYPT_PROBE_COST = 8;
    /** A hash through the reference CLI starts a process of its own: about this much on top (2-core VM). */
    public const CLI_START_NS = 10_000_000;

    private function __construct(
        /** At PROBE_MIB */
        public readonly float $nsPerKibPass,
        /** What a cell process takes besides its hashes (starting PHP, answering) */
        public readonly int $processNs,
        public readonly float $nsPerBcryptRound,
        /** true under the fake clock: only the timed hashes count */
        public readonly bool $modelled,
        /** At LARGE_PROBE_MIB */
        public readonly float $largeNsPerKibPass,
    ) {
    }

    /** @param float|null $largeNsPerKibPass at LARGE_PROBE_MIB; null: as at PROBE_MIB */
    public static function of(float $nsPerKibPass, int $processNs, float $nsPerBcryptRound, bool $modelled = false, ?float $largeNsPerKibPass = null): self
    {
        return new self(max(1e-3, $nsPerKibPass), max(0, $processNs), max(1e-3, $nsPerBcryptRound), $modelled, max(1e-3, $largeNsPerKibPass ?? $nsPerKibPass));
    }

    /** Two probe cell processes through $runner (and, on the real clock, one bcrypt hash in this process). */
    public static function probed(CellRunner $runner, bool $fakeClock): self
    {
        [$perKibPass, $smallProcessNs] = self::probe($runner, self::PROBE_MIB);
        [$largePerKibPass, $largeProcessNs] = self::probe($runner, self::LARGE_PROBE_MIB);
        if ($fakeClock) {
            return self::of($perKibPass, 0, BcryptCosts::FAKE_NS_PER_ROUND, true, $largePerKibPass);
        }
        $bcrypt = hrtime(true);
        password_hash(Argon2Hasher::PASSWORD, PASSWORD_BCRYPT, ['cost' => self::BCRYPT_PROBE_COST]);
        $perRound = (hrtime(true) - $bcrypt) / (1 << self::BCRYPT_PROBE_COST);
        return self::of($perKibPass, min($smallProcessNs, $largeProcessNs), $perRound, false, $largePerKibPass);
    }

    /**
     * One cell process of PROBE_HASHES timed hashes at $mib MiB, one pass, one thread: their median,
     * so that a hash a neighbour preempted does not set the projection of the whole grid.
     *
     * @return array{0: float, 1: int} a hash's nanoseconds per KiB-pass, and what its process took besides its hashes
     */
    private static function probe(CellRunner $runner, int $mib): array
    {
        $started = hrtime(true);
        $probe = $runner->measure(Argon2Cell::of('password_hash', 'argon2id', $mib * 1024, 1, 1), self::PROBE_HASHES, 0);
        $took = hrtime(true) - $started;
        $walls = array_map(static fn (array $sample): int => $sample['wall_ns'], $probe['samples']);
        sort($walls);
        $hashNs = $walls === [] ? 3 * $mib * 1_000_000 : $walls[intdiv(count($walls), 2)];
        // The probe made its untimed first hash and its timed ones, each verified by a second hash.
        return [$hashNs / ($mib * 1024), max(0, $took - 2 * (1 + count($walls)) * $hashNs)];
    }

    /** The cost of a KiB-pass at $memoryKib: the probes', interpolated on the memory's logarithm between them. */
    public function nsPerKibPassAt(int $memoryKib): float
    {
        $small = log(self::PROBE_MIB * 1024);
        $large = log(self::LARGE_PROBE_MIB * 1024);
        $at = min(1.0, max(0.0, (log(max(1, $memoryKib)) - $small) / ($large - $small)));
        return $this->nsPerKibPass + $at * ($this->largeNsPerKibPass - $this->nsPerKibPass);
    }

    /** One hash of $cell, verification not included. */
    public function hashNs(Argon2Cell $cell): float
    {
        $hash = $this->nsPerKibPassAt($cell->memoryKib) * $cell->memoryKib * $cell->timeCost / min($cell->threads, 2) * ($cell->threads > 1 ? 1.2 : 1.0);
        return $hash + ($cell->interface === 'cli' && !$this->modelled ? self::CLI_START_NS : 0);
    }

    /** A cell process of $timed timed hashes, all it does included. */
    public function cellNs(Argon2Cell $cell, int $timed): int
    {
        if ($this->modelled) {
            return (int) round($timed * $this->hashNs($cell));
        }
        $verified = $cell->variant === 'argon2d' ? 1.0 : 2.0; // no second Argon2d implementation: nothing to verify with
        return (int) round($this->processNs + (CellMeasurement::WARM_UP_HASHES + $timed) * $this->hashNs($cell) * $verified);
    }

    /** bcrypt at $cost, $timed timed hashes, each verified by password_verify (the same cost again). */
    public function bcryptNs(int $cost, int $timed): int
    {
        $hash = (1 << $cost) * $this->nsPerBcryptRound;
        return (int) round($this->modelled ? $timed * $hash : (CellMeasurement::WARM_UP_HASHES + $timed) * $hash * 2);
    }
}
