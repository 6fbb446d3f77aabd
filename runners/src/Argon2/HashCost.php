<?php

declare(strict_types=1);

namespace PhpCryptoBench\Argon2;

/**
 * What Argon2's and bcrypt's work costs on this host, projected from probes: a 16 MiB and a 64 MiB
 * one-pass Argon2id cell process (their hashes, and what a process took besides), on the real clock a
 * two-pass hash at each memory and one bcrypt hash at cost 8 in this process. A hash's first pass and
 * its later ones are probed apart: the first maps the memory, so at 64 MiB it cost 1.7 times a later
 * pass (62 against 36 ms, 2-core VM), and counting every pass as a first projected password_hash's t=3
 * at 186 ms against 135 measured. Argon2's cost per KiB-pass grows with the memory once it leaves the
 * caches (64 MiB took 2.7 times 16 MiB's per KiB-pass on amd-epyc-zen5): between the probes it is
 * interpolated on the memory's logarithm, outside them it is the nearer probe's. bcrypt doubles per
 * cost. What a cell takes in all: its process, its untimed first hash, and its timed ones, each
 * verified (verification is counted, never skipped) by what Argon2Verifiers picks: libargon2's
 * password_verify costs a hash of the cell again, libsodium's check of a libargon2 hash
 * LIBSODIUM_VERIFY_SHARE of one thread's hash. Under the fake clock only the timed hashes take
 * (modelled) time, as ModelledClock and BcryptCosts count it.
 */
final class HashCost
{
    public const PROBE_MIB = 16;
    public const LARGE_PROBE_MIB = 64;
    public const PROBE_HASHES = 3;
    public const BCRYPT_PROBE_COST = 8;
    /** A hash through the reference CLI starts a process of its own: about this much on top (2-core VM). */
    public const CLI_START_NS = 10_000_000;
    /**
     * libsodium's check of a libargon2 hash, over a libargon2 hash of one thread at the same
     * parameters (the probes are password_hash's): 74 against 138 ms and 90 against 148 ms at 64 MiB,
     * t=3, p=1 (amd-epyc, Debian 12 and 13's libsodium 1.0.18, whose code is vectorised). libsodium
     * computes a hash's lanes in turn: a hash of more threads costs it as one of one thread.
     */
    public const LIBSODIUM_VERIFY_SHARE = 0.6;

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
        /** A pass after the first, at PROBE_MIB */
        public readonly float $laterNsPerKibPass,
        /** A pass after the first, at LARGE_PROBE_MIB */
        public readonly float $largeLaterNsPerKibPass,
        private readonly Argon2Verifiers $verifiers,
    ) {
    }

    /**
     * @param float|null $largeNsPerKibPass at LARGE_PROBE_MIB; null: as at PROBE_MIB
     * @param float|null $laterNsPerKibPass a pass after the first at PROBE_MIB; null: as the first
     * @param float|null $largeLaterNsPerKibPass a pass after the first at LARGE_PROBE_MIB; null: as the first
     * @param Argon2Verifiers|null $verifiers what checks each cell's hashes; null: this PHP's
     */
    public static function of(float $nsPerKibPass, int $processNs, float $nsPerBcryptRound, bool $modelled = false, ?float $largeNsPerKibPass = null, ?float $laterNsPerKibPass = null, ?float $largeLaterNsPerKibPass = null, ?Argon2Verifiers $verifiers = null): self
    {
        $large = $largeNsPerKibPass ?? $nsPerKibPass;
        return new self(
            max(1e-3, $nsPerKibPass),
            max(0, $processNs),
            max(1e-3, $nsPerBcryptRound),
            $modelled,
            max(1e-3, $large),
            max(1e-3, $laterNsPerKibPass ?? $nsPerKibPass),
            max(1e-3, $largeLaterNsPerKibPass ?? $large),
            $verifiers ?? Argon2Verifiers::ofThisPhp(),
        );
    }

    /**
     * Two probe cell processes through $runner and, on the real clock, a two-pass hash at each probed
     * memory and one bcrypt hash in this process. Under the fake clock a pass costs as the first
     * (ModelledCellCost).
     */
    public static function probed(CellRunner $runner, bool $fakeClock): self
    {
        $verifiers = Argon2Verifiers::ofThisPhp();
        [$first, $smallProcessNs] = self::probe($runner, self::PROBE_MIB, $verifiers);
        [$largeFirst, $largeProcessNs] = self::probe($runner, self::LARGE_PROBE_MIB, $verifiers);
        $perKibPass = $first / (self::PROBE_MIB * 1024);
        $largePerKibPass = $largeFirst / (self::LARGE_PROBE_MIB * 1024);
        if ($fakeClock) {
            return self::of($perKibPass, 0, BcryptCosts::FAKE_NS_PER_ROUND, true, $largePerKibPass, verifiers: $verifiers);
        }
        $later = self::laterPass($first, self::twoPassHashNs(self::PROBE_MIB, self::PROBE_HASHES), self::PROBE_MIB);
        $largeLater = self::laterPass($largeFirst, self::twoPassHashNs(self::LARGE_PROBE_MIB, 1), self::LARGE_PROBE_MIB);
        $bcrypt = hrtime(true);
        password_hash(Argon2Hasher::PASSWORD, PASSWORD_BCRYPT, ['cost' => self::BCRYPT_PROBE_COST]);
        $perRound = (hrtime(true) - $bcrypt) / (1 << self::BCRYPT_PROBE_COST);
        return self::of($perKibPass, min($smallProcessNs, $largeProcessNs), $perRound, false, $largePerKibPass, $later, $largeLater, $verifiers);
    }

    /**
     * The fastest of $hashes two-pass hashes in this process: a cell process would add its start, its
     * untimed hash and a verification of each (about three hashes more for one timed). At 16 MiB
     * a process's first hashes took 2 to 4 times a cell's timed ones (their memory not yet reused), so
     * there the fastest of three counts; at 64 MiB every hash maps its memory as the cell's do, and one
     * is enough: a preempted one only makes a later pass dearer, the projection stays one of least work.
     */
    private static function twoPassHashNs(int $mib, int $hashes): float
    {
        $fastest = PHP_INT_MAX;
        for ($hash = 0; $hash < $hashes; $hash++) {
            $started = hrtime(true);
            password_hash(Argon2Hasher::PASSWORD, PASSWORD_ARGON2ID, ['memory_cost' => $mib * 1024, 'time_cost' => 2, 'threads' => 1]);
            $fastest = min($fastest, hrtime(true) - $started);
        }
        return (float) $fastest;
    }

    /**
     * A pass after the first, per KiB: what the second pass added to a one-pass hash. No less than a
     * hundredth of the first: a one-pass hash preempted into a two-pass one's time must not make later
     * passes free (the projection is of least work, and the grid's cells run up to four passes).
     */
    public static function laterPass(float $onePassNs, float $twoPassNs, int $mib): float
    {
        return max($onePassNs / 100, $twoPassNs - $onePassNs) / ($mib * 1024);
    }

    /**
     * One cell process of PROBE_HASHES timed hashes at $mib MiB, one pass, one thread: their median,
     * so that a hash a neighbour preempted does not set the projection of the whole grid.
     *
     * @return array{0: float, 1: int} a hash's nanoseconds, and what its process took besides its hashes
     */
    private static function probe(CellRunner $runner, int $mib, Argon2Verifiers $verifiers): array
    {
        $started = hrtime(true);
        $cell = Argon2Cell::of('password_hash', 'argon2id', $mib * 1024, 1, 1);
        $probe = $runner->measure($cell, self::PROBE_HASHES, 0);
        $took = hrtime(true) - $started;
        $walls = array_map(static fn (array $sample): int => $sample['wall_ns'], $probe['samples']);
        sort($walls);
        $hashNs = $walls === [] ? 3 * $mib * 1_000_000 : $walls[intdiv(count($walls), 2)];
        // The probe made its untimed first hash and its timed ones, each verified.
        $verifiedShare = 1.0 + self::verifyShare($verifiers, $cell);
        return [(float) $hashNs, max(0, (int) round($took - $verifiedShare * (1 + count($walls)) * $hashNs))];
    }

    /** The cost of a hash's first KiB-pass at $memoryKib: the probes', interpolated on the memory's logarithm between them. */
    public function nsPerKibPassAt(int $memoryKib): float
    {
        return $this->between($this->nsPerKibPass, $this->largeNsPerKibPass, $memoryKib);
    }

    /** The cost of a KiB-pass after a hash's first at $memoryKib, as nsPerKibPassAt() interpolates it. */
    public function laterNsPerKibPassAt(int $memoryKib): float
    {
        return $this->between($this->laterNsPerKibPass, $this->largeLaterNsPerKibPass, $memoryKib);
    }

    private function between(float $atProbe, float $atLargeProbe, int $memoryKib): float
    {
        $small = log(self::PROBE_MIB * 1024);
        $large = log(self::LARGE_PROBE_MIB * 1024);
        $at = min(1.0, max(0.0, (log(max(1, $memoryKib)) - $small) / ($large - $small)));
        return $atProbe + $at * ($atLargeProbe - $atProbe);
    }

    /** One hash of $cell, verification not included: its first pass, then its later ones. */
    public function hashNs(Argon2Cell $cell): float
    {
        return $this->passesNs($cell, $cell->threads) + ($cell->interface === 'cli' && !$this->modelled ? self::CLI_START_NS : 0);
    }

    /** One check of a hash of $cell, by what Argon2Verifiers picks for it: 0 when nothing checks it. */
    public function verificationNs(Argon2Cell $cell): float
    {
        $verifier = $this->verifiers->for($cell);
        if ($verifier === null) {
            return 0.0;
        }
        // libsodium computes the lanes in turn; password_verify runs libargon2's threads as the hash did.
        $threads = $verifier->library === Argon2Verifier::LIBSODIUM ? 1 : $cell->threads;
        return self::verifyShare($this->verifiers, $cell) * $this->passesNs($cell, $threads);
    }

    /** A check over a hash as the probes (password_hash's) cost one: LIBSODIUM_VERIFY_SHARE where libsodium checks and the probes were libargon2. */
    private static function verifyShare(Argon2Verifiers $verifiers, Argon2Cell $cell): float
    {
        $verifier = $verifiers->for($cell);
        if ($verifier === null) {
            return 0.0;
        }
        $probed = $verifiers->madeBy(Argon2Cell::of('password_hash', 'argon2id', self::PROBE_MIB * 1024, 1, 1));
        return $verifier->library === Argon2Verifier::LIBSODIUM && $probed === Argon2Verifier::LIBARGON2 ? self::LIBSODIUM_VERIFY_SHARE : 1.0;
    }

    /** The passes of a hash at $cell's memory and time cost on $threads threads, without a process to start. */
    private function passesNs(Argon2Cell $cell, int $threads): float
    {
        $passes = $this->nsPerKibPassAt($cell->memoryKib) + ($cell->timeCost - 1) * $this->laterNsPerKibPassAt($cell->memoryKib);
        return $passes * $cell->memoryKib / min($threads, 2) * ($threads > 1 ? 1.2 : 1.0);
    }

    /** A cell process of $timed timed hashes, all it does included. */
    public function cellNs(Argon2Cell $cell, int $timed): int
    {
        if ($this->modelled) {
            return (int) round($timed * $this->hashNs($cell));
        }
        return (int) round($this->processNs + (CellMeasurement::WARM_UP_HASHES + $timed) * ($this->hashNs($cell) + $this->verificationNs($cell)));
    }

    /** bcrypt at $cost, $timed timed hashes, each verified by password_verify (the same cost again). */
    public function bcryptNs(int $cost, int $timed): int
    {
        $hash = (1 << $cost) * $this->nsPerBcryptRound;
        return (int) round($this->modelled ? $timed * $hash : (CellMeasurement::WARM_UP_HASHES + $timed) * $hash * 2);
    }
}
