<?php

declare(strict_types=1);

namespace PhpCryptoBench\Tests\Aead;

use PhpCryptoBench\Aead\OneCallCase;
use PhpCryptoBench\Aead\Secretstream;
use PhpCryptoBench\Aead\SecretstreamCase;
use PhpCryptoBench\Aead\SecretstreamCheck;
use PhpCryptoBench\Aead\StreamComparison;
use PhpCryptoBench\Exception\VerificationFailed;
use PhpCryptoBench\Harness\FakeTimer;
use PhpCryptoBench\Harness\Profile;
use PhpCryptoBench\Harness\Sampler;
use PhpCryptoBench\Io\CsvTable;
use PHPUnit\Framework\TestCase;
use ReflectionProperty;
use PHPUnit\Framework\Attributes\DataProvider;

/** Secretstream in 64 KiB chunks against one XChaCha20-Poly1305 call: the cases, their check, their rounds. */
final class StreamComparisonTest extends TestCase
{
    /** @return iterable<string, array{int, int}> payload bytes => chunks */
    public static function sizes(): iterable
    {
        yield 'empty: one empty FINAL chunk' => [0, 1];
        yield 'one byte' => [1, 1];
        yield 'exactly one chunk' => [65536, 1];
        yield 'a chunk and one byte' => [65537, 2];
        yield '512 KiB' => [524288, 8];
    }

    /** @dataProvider sizes */
    #[DataProvider('sizes')]
    public function testAPayloadIsSealedInChunksTheLastFinalAndOpensWhole(int $bytes, int $chunks): void
    {
        $key = sodium_crypto_secretstream_xchacha20poly1305_keygen();
        $plaintext = $bytes > 0 ? random_bytes($bytes) : '';
        [$header, $sealed] = Secretstream::encrypt($plaintext, $key);

        self::assertSame(24, strlen($header));
        self::assertCount($chunks, $sealed);
        self::assertSame($bytes + 17 * $chunks, array_sum(array_map('strlen', $sealed)));
        $opened = Secretstream::decrypt($header, $sealed, $key);
        self::assertNotNull($opened);
        self::assertSame($plaintext, implode('', $opened));
        // The snippet writes the same stream: header ‖ chunks.
        self::assertSame($plaintext, self::throughTheSnippet($header . implode('', $sealed), $key));
    }

    public function testEveryChangeToAStreamIsRefusedBeforeTiming(): void
    {
        self::assertSame(
            [
                'a flipped bit in a chunk',
                'a flipped bit in the header',
                'the FINAL chunk cut off (truncation)',
                'two chunks swapped (reordering)',
                'a chunk dropped',
                'a chunk repeated',
                'a chunk after the FINAL one',
                "another stream's chunk spliced in",
                'other associated data',
                'another key',
            ],
            SecretstreamCheck::run(),
        );
    }

    public function testAStreamWithoutChunksOrWithAShortHeaderIsRefused(): void
    {
        $key = sodium_crypto_secretstream_xchacha20poly1305_keygen();
        [$header, $chunks] = Secretstream::encrypt('x', $key);
        self::assertNull(Secretstream::decrypt($header, [], $key));
        self::assertNull(Secretstream::decrypt(substr($header, 1), $chunks, $key));
    }

    public function testBothCasesVerifyTheirLastRunAndAreKeyedAlike(): void
    {
        foreach (['encrypt', 'decrypt'] as $operation) {
            $stream = new SecretstreamCase($operation, 200000);
            $call = OneCallCase::of($operation, 200000);
            foreach ([$stream, $call] as $case) {
                $case->run(2);
                $case->verifyLastRun();
                self::assertSame(200000, $case->bytesPerIteration());
            }
            self::assertSame(['algorithm' => 'sodium-secretstream-xchacha20poly1305', 'operation' => $operation, 'payload_bytes' => 200000, 'chunk_bytes' => 65536], $stream->key());
            self::assertSame(['algorithm' => 'sodium-xchacha20poly1305-ietf', 'operation' => $operation, 'payload_bytes' => 200000, 'chunk_bytes' => 200000], $call->key());
        }
    }

    public function testTheKeyColumnsAreTheSchemasKeyInOrder(): void
    {
        $tables = json_decode((string) file_get_contents(REPOSITORY . '/data/schema/tables/aead.json'), true);
        $resource = current(array_filter($tables['resources'], static fn (array $r): bool => $r['path'] === StreamComparison::CSV));
        self::assertIsArray($resource);
        $columns = array_column($resource['schema']['fields'], 'name');
        $case = new SecretstreamCase('encrypt', 16);
        self::assertSame(array_slice($columns, 0, 4), array_keys($case->key()));
        self::assertSame(['algorithm', 'operation', 'payload_bytes', 'sample'], $resource['schema']['primaryKey']);
        self::assertSame($resource['schema']['fields'][0]['constraints']['enum'], [$case->key()['algorithm'], OneCallCase::of('encrypt', 16)->key()['algorithm']]);
    }

    /** @return iterable<string, array{string}> */
    public static function operations(): iterable
    {
        yield 'encrypt' => ['encrypt'];
        yield 'decrypt' => ['decrypt'];
    }

    /** @dataProvider operations */
    #[DataProvider('operations')]
    public function testAStreamCaseWhoseOutputIsWrongFailsVerification(string $operation): void
    {
        $case = new SecretstreamCase($operation, 70000);
        $case->run(1);
        $property = new ReflectionProperty(SecretstreamCase::class, $operation === 'encrypt' ? 'chunks' : 'opened');
        $wrong = $property->getValue($case);
        $wrong[1] = strrev($wrong[1]);
        $property->setValue($case, $wrong);
        $this->expectException(VerificationFailed::class);
        $case->verifyLastRun();
    }

    public function testBothWaysAreSampledInTheSameRoundsAtEachOperationAndPayload(): void
    {
        $table = new CsvTable(['algorithm', 'operation', 'payload_bytes', 'chunk_bytes', 'sample', 'iterations', 'elapsed_ns', 'minor_faults']);
        $sampler = new Sampler(new FakeTimer(), Profile::named('quick')->forFakeClock());
        StreamComparison::measureInto($table, $sampler);

        $rounds = [];
        foreach ($table->records() as $row) {
            $rounds[$row['operation'] . ' ' . $row['payload_bytes']][$row['algorithm']][] = $row['sample'];
        }
        self::assertSame(['encrypt 524288', 'decrypt 524288', 'encrypt 10485760', 'decrypt 10485760'], array_keys($rounds));
        foreach ($rounds as $ways) {
            self::assertSame(['sodium-secretstream-xchacha20poly1305', 'sodium-xchacha20poly1305-ietf'], array_keys($ways));
            self::assertSame($ways['sodium-secretstream-xchacha20poly1305'], $ways['sodium-xchacha20poly1305-ietf']);
        }
        self::assertSame(4 * 2, StreamComparison::caseCount());
        self::assertEquals((object) [StreamComparison::CSV => StreamComparison::INTERLEAVED_BY], $sampler->tally()->toManifest()['interleaved_by']);
    }

    private static function throughTheSnippet(string $stream, string $key): string
    {
        require_once REPOSITORY . '/runners/snippets/secretstream-large-payload.php';
        $input = fopen('php://memory', 'w+b');
        $output = fopen('php://memory', 'w+b');
        self::assertIsResource($input);
        self::assertIsResource($output);
        fwrite($input, $stream);
        rewind($input);
        secretstream_decrypt($input, $output, '', $key);
        rewind($output);
        return (string) stream_get_contents($output);
    }
}
