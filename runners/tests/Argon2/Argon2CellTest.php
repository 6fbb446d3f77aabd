<?php

declare(strict_types=1);

namespace PhpCryptoBench\Tests\Argon2;

use PhpCryptoBench\Argon2\Argon2Cell;
use PhpCryptoBench\Argon2\Argon2Hasher;
use PhpCryptoBench\Argon2\CellRunner;
use PhpCryptoBench\Argon2\ModelledCellCost;
use PhpCryptoBench\Exception\InvalidArgon2Parameter;
use PHPUnit\Framework\TestCase;
use PHPUnit\Framework\Attributes\DataProvider;

final class Argon2CellTest extends TestCase
{
    /**
     * A hash's memory is its peak over what the cell held resident just before it, so the pages of its
     * block that malloc's heap already held do not count: 8,164 KiB and 8,128 KiB for an 8 MiB hash under
     * Debian 13's PHP 8.4, in two fresh clones' make test. A peak that missed the block would be
     * some hundreds of KiB, not within this of 8 MiB.
     */
    private const HEAP_SLACK_KIB = 256;

    /** @return iterable<string, array{string, string, int, int, int, string}> */
    public static function invalid(): iterable
    {
        yield 'an unknown interface' => ['bcrypt', 'argon2i', 1024, 1, 1, 'interface: expected password_hash, sodium, cli, got "bcrypt"'];
        yield 'Argon2d outside the CLI' => ['password_hash', 'argon2d', 1024, 1, 1, 'variant: expected argon2i, argon2id for password_hash, got "argon2d"'];
        yield 'no threads' => ['cli', 'argon2id', 1024, 0, 1, 'threads: expected 1 to 2^24 - 1, got 0'];
        yield 'under 8 KiB per thread' => ['cli', 'argon2id', 31, 4, 1, 'memory_kib: expected at least 8 KiB per thread (32) and under 4 TiB, got 31'];
        yield 'no passes' => ['cli', 'argon2id', 1024, 1, 0, 'time_cost: expected at least 1, got 0'];
    }

    /** @dataProvider invalid */
    #[DataProvider('invalid')]
    public function testInvalidParametersAreRefusedWithTheLimit(string $interface, string $variant, int $memory, int $threads, int $time, string $message): void
    {
        $this->expectException(InvalidArgon2Parameter::class);
        $this->expectExceptionMessage($message);
        Argon2Cell::of($interface, $variant, $memory, $threads, $time);
    }

    public function testWhatAnInterfaceRefusesIsARecordedReasonNotAnError(): void
    {
        self::assertStringContainsString('libsodium always uses 1 thread', (string) Argon2Cell::of('sodium', 'argon2id', 16384, 2, 1)->refusal('standard'));
        self::assertStringContainsString('OPSLIMIT_MIN', (string) Argon2Cell::of('sodium', 'argon2i', 16384, 1, 1)->refusal('standard'));
        self::assertStringContainsString('refuses threads > 1', (string) Argon2Cell::of('password_hash', 'argon2id', 16384, 4, 1)->refusal('sodium'));
        self::assertNull(Argon2Cell::of('password_hash', 'argon2id', 16384, 4, 1)->refusal('standard'));
        self::assertNotNull(Argon2Cell::of('password_hash', 'argon2id', 16384, 1, 1)->refusal(null));
    }

    public function testTheProviderIsReadFromPhp(): void
    {
        self::assertSame(defined('PASSWORD_ARGON2_PROVIDER') ? PASSWORD_ARGON2_PROVIDER : null, Argon2Cell::provider());
        self::assertContains(Argon2Cell::provider(), ['standard', 'sodium', null]);
    }

    public function testTheReferenceImplementationsPublishedHashVerifies(): void
    {
        // The phc-winner-argon2 README's example: "password", salt "somesalt", t=2, m=2^16 KiB, p=4, 24 bytes.
        self::assertTrue(password_verify('password', '$argon2i$v=19$m=65536,t=2,p=4$c29tZXNhbHQ$RdescudvJCsgt3ub+b+dWRWJTmaaJObG'));
        self::assertFalse(password_verify('passwore', '$argon2i$v=19$m=65536,t=2,p=4$c29tZXNhbHQ$RdescudvJCsgt3ub+b+dWRWJTmaaJObG'));
    }

    /** @return iterable<string, array{Argon2Cell, bool|null}> */
    public static function cells(): iterable
    {
        yield 'password_hash Argon2id, 2 threads' => [Argon2Cell::of('password_hash', 'argon2id', 8192, 2, 1), true];
        yield 'sodium Argon2i (memory in bytes)' => [Argon2Cell::of('sodium', 'argon2i', 8192, 1, 3), true];
        yield 'CLI Argon2d: nothing else can verify it' => [Argon2Cell::of('cli', 'argon2d', 8192, 2, 1), null];
    }

    /** @dataProvider cells */
    #[DataProvider('cells')]
    public function testAChildProcessMeasuresWallCpuAndPeakMemoryAndVerifies(Argon2Cell $cell, ?bool $verified): void
    {
        $result = (new CellRunner(REPOSITORY . '/runners/argon2-cell.php'))->measure($cell, 2, 0);
        self::assertSame('ok', $result['status'], $result['detail']);
        self::assertCount(2, $result['samples']);
        self::assertGreaterThan(0, $result['samples'][0]['wall_ns']);
        self::assertGreaterThan(0, $result['samples'][0]['cpu_ns']);
        self::assertGreaterThanOrEqual(8192 - self::HEAP_SLACK_KIB, $result['max_rss_kib'], 'the 8 MiB of Argon2 memory shows in the peak');
        if ($cell->interface !== 'cli') {
            self::assertLessThan(8192 + 4096, $result['max_rss_kib'], 'one hash\'s memory, not the cell process\'s');
        }
        self::assertSame($verified, $result['verified']);
        self::assertStringStartsWith('$' . $cell->variant . '$v=19$m=8192,t=' . $cell->timeCost, $result['hashes'][0]);
    }

    public function testACellStartedByALargeProcessRecordsItsHashNotWhatItWasForkedFrom(): void
    {
        // A fork starts with its parent's resident size as its ru_maxrss, and exec keeps it: a cell
        // started by a runner of 420 MiB reported 420.9 MiB for a 64 MiB hash (issue 46). 32 MiB more
        // than PHPUnit's own already puts what was forked from well past the 12 MiB bound (filling
        // 256 MiB took a fifth of a CPU-second).
        $large = str_repeat('x', 32 * 1024 * 1024);
        $result = (new CellRunner(REPOSITORY . '/runners/argon2-cell.php'))->measure(Argon2Cell::of('password_hash', 'argon2id', 8192, 1, 1), 1, 0);
        self::assertSame(32 * 1024 * 1024, strlen($large));
        self::assertSame('ok', $result['status'], $result['detail']);
        // What this test is about is the upper bound.
        self::assertGreaterThanOrEqual(8192 - self::HEAP_SLACK_KIB, $result['max_rss_kib'], 'the 8 MiB of Argon2 memory shows');
        self::assertLessThan(8192 + 4096, $result['max_rss_kib'], 'not the resident size of the process that started the cell');
    }

    public function testAFailingCellIsRecordedAndTheCallerCarriesOn(): void
    {
        // libsodium refuses Argon2i with one pass: the child reports it as a failed cell.
        $result = (new CellRunner(REPOSITORY . '/runners/argon2-cell.php'))->measure(Argon2Cell::of('sodium', 'argon2i', 8192, 1, 1), 2, 0);
        self::assertSame('failed', $result['status']);
        self::assertStringContainsString('SodiumException', $result['detail']);
        self::assertSame([], $result['samples']);
    }

    public function testTheScriptsFakeModePrintsTheModelledNumbersAndOneRealHash(): void
    {
        $cell = Argon2Cell::of('password_hash', 'argon2id', 8192, 2, 1);
        $result = (new CellRunner(REPOSITORY . '/runners/argon2-cell.php', true))->measure($cell, 3, 0);
        $cost = new ModelledCellCost();
        self::assertSame(['samples', 'hashes', 'verified', 'status', 'detail', 'max_rss_kib', 'elapsed_ns', 'verified_by'], array_keys($result), 'the JSON contract CellRunner reads');
        self::assertSame(array_sum(array_column($result['samples'], 'wall_ns')), $result['elapsed_ns'], 'modelled time: the samples\' sum');
        self::assertSame(array_map(static fn (int $i): array => ['wall_ns' => $cost->wallNs($cell, $i), 'cpu_ns' => $cost->cpuNs($cell, $i)], [0, 1, 2]), $result['samples']);
        self::assertCount(1, $result['hashes']);
        self::assertTrue($result['verified']);
        self::assertSame((new Argon2Hasher())->verification($cell), $result['verified_by'], 'what checked its hash, as this PHP picks it');
        self::assertSame(8192 + ModelledCellCost::HASH_OVERHEAD_KIB, $result['max_rss_kib']);
    }

    public function testACellTheScriptCannotParseIsAFailedCellWithTheReason(): void
    {
        $cell = Argon2Cell::of('password_hash', 'argon2id', 8192, 1, 1);
        $script = sys_get_temp_dir() . '/pcb-cell-' . bin2hex(random_bytes(4)) . '.php';
        // The real script, given a variant it does not know: it must exit 2 with the reason on stderr.
        file_put_contents($script, sprintf('<?php $argv[2] = "argon2x"; require %s;', var_export(REPOSITORY . '/runners/argon2-cell.php', true)));
        try {
            $result = (new CellRunner($script))->measure($cell, 1, 0);
        } finally {
            unlink($script);
        }
        self::assertSame('failed', $result['status']);
        self::assertSame('the measuring process exited with status 2: variant: expected argon2i, argon2id for password_hash, got "argon2x"', $result['detail']);
    }
}
