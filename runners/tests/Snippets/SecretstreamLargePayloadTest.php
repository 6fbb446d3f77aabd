<?php

declare(strict_types=1);

namespace PhpCryptoBench\Tests\Snippets;

use InvalidArgumentException;
use PhpCryptoBench\Tests\Support\TrickleStream;
use RuntimeException;
use PHPUnit\Framework\Attributes\DataProvider;

/**
 * runners/snippets/secretstream-large-payload.php: header (24) ‖ chunks of chunk + 17 bytes, the last
 * FINAL; a stream cut short, reordered, extended or changed anywhere is refused.
 */
final class SecretstreamLargePayloadTest extends SnippetTestCase
{
    private const HEADER = 24;
    private const ABYTES = 17;
    /** Small chunks in most tests, so that a short message has many of them. */
    private const CHUNK = 64;
    private const REFUSED = 'the stream could not be authenticated';

    public static function snippet(): string
    {
        return 'secretstream-large-payload.php';
    }

    /** @return iterable<string, array{int, int}> payload bytes, chunk bytes */
    public static function sizes(): iterable
    {
        yield 'empty: one empty FINAL chunk' => [0, self::CHUNK];
        yield 'one byte' => [1, self::CHUNK];
        yield 'a chunk less one' => [self::CHUNK - 1, self::CHUNK];
        yield 'exactly a chunk: it is the FINAL one' => [self::CHUNK, self::CHUNK];
        yield 'a chunk and one' => [self::CHUNK + 1, self::CHUNK];
        yield 'three chunks and five bytes' => [3 * self::CHUNK + 5, self::CHUNK];
        yield '200 KiB in the default 64 KiB chunks' => [200 * 1024, 65536];
    }

    /** @dataProvider sizes */
    #[DataProvider('sizes')]
    public function testWhatIsEncryptedDecryptsWithTheSameKeyAndAssociatedData(int $bytes, int $chunk): void
    {
        $key = sodium_crypto_secretstream_xchacha20poly1305_keygen();
        $plaintext = $bytes > 0 ? random_bytes($bytes) : '';
        $stream = self::encrypt($plaintext, 'backups/2026-01-31.tar', $key, $chunk);

        $chunks = max(1, (int) ceil($bytes / $chunk));
        self::assertSame(self::HEADER + $bytes + $chunks * self::ABYTES, strlen($stream));
        self::assertSame($plaintext, self::decrypt($stream, 'backups/2026-01-31.tar', $key, $chunk));
    }

    public function testTheDefaultChunkSizeIs64KibOnBothSides(): void
    {
        $key = sodium_crypto_secretstream_xchacha20poly1305_keygen();
        $plaintext = random_bytes(65536 + 1);
        $input = self::stream($plaintext);
        $output = self::stream('');
        secretstream_encrypt($input, $output, '', $key);
        rewind($output);
        self::assertSame(self::HEADER + 65536 + 1 + 2 * self::ABYTES, strlen((string) stream_get_contents($output)));
        rewind($output);
        $back = self::stream('');
        secretstream_decrypt($output, $back, '', $key);
        rewind($back);
        self::assertSame($plaintext, stream_get_contents($back));
    }

    public function testEachStreamGetsItsOwnRandomHeader(): void
    {
        $key = sodium_crypto_secretstream_xchacha20poly1305_keygen();
        $first = self::encrypt('same', '', $key);
        $second = self::encrypt('same', '', $key);
        self::assertNotSame(substr($first, 0, self::HEADER), substr($second, 0, self::HEADER));
        self::assertNotSame($first, $second);
    }

    /**
     * The stream of a 200-byte payload in 64-byte chunks: header, then chunks 0-2 of 81 bytes and chunk 3
     * (8 bytes, FINAL) of 25.
     *
     * @return iterable<string, array{callable(string): string}>
     */
    public static function tamperings(): iterable
    {
        $chunk = static fn (string $s, int $i): string => substr($s, self::HEADER + $i * (self::CHUNK + self::ABYTES), self::CHUNK + self::ABYTES);
        $header = static fn (string $s): string => substr($s, 0, self::HEADER);
        yield 'header changed' => [static fn (string $s): string => self::flipped($s, 3)];
        yield 'a byte of the first chunk changed' => [static fn (string $s): string => self::flipped($s, self::HEADER + 5)];
        yield 'the FINAL chunk changed' => [static fn (string $s): string => self::flipped($s, strlen($s) - 1)];
        yield 'cut after a whole chunk: no FINAL chunk' => [static fn (string $s): string => substr($s, 0, self::HEADER + 3 * (self::CHUNK + self::ABYTES))];
        yield 'cut inside the FINAL chunk' => [static fn (string $s): string => substr($s, 0, -1)];
        yield 'cut inside a chunk' => [static fn (string $s): string => substr($s, 0, self::HEADER + 100)];
        yield 'only the header' => [static fn (string $s): string => $header($s)];
        yield 'the header cut short' => [static fn (string $s): string => substr($s, 0, self::HEADER - 1)];
        yield 'empty' => [static fn (string $s): string => ''];
        yield 'chunks 1 and 2 swapped' => [static fn (string $s): string => $header($s) . $chunk($s, 0) . $chunk($s, 2) . $chunk($s, 1) . substr($s, self::HEADER + 3 * (self::CHUNK + self::ABYTES))];
        yield 'chunk 1 dropped' => [static fn (string $s): string => $header($s) . $chunk($s, 0) . substr($s, self::HEADER + 2 * (self::CHUNK + self::ABYTES))];
        yield 'chunk 0 repeated' => [static fn (string $s): string => $header($s) . $chunk($s, 0) . substr($s, self::HEADER)];
        yield 'a byte after the FINAL chunk' => [static fn (string $s): string => $s . "\0"];
        yield "another stream's FINAL chunk after this one's" => [static fn (string $s): string => $s . substr($s, -25)];
    }

    /**
     * @dataProvider tamperings
     * @param callable(string): string $tamper
     */
     #[DataProvider('tamperings')]
    public function testAChangedStreamIsRefused(callable $tamper): void
    {
        $key = sodium_crypto_secretstream_xchacha20poly1305_keygen();
        $stream = $tamper(self::encrypt(random_bytes(200), 'backups/2026-01-31.tar', $key));
        $this->expectException(RuntimeException::class);
        $this->expectExceptionMessage(self::REFUSED);
        self::decrypt($stream, 'backups/2026-01-31.tar', $key);
    }

    /**
     * A payload of whole chunks ends in a full-size FINAL chunk: what follows it is read apart from it, and
     * only the check for trailing bytes (not the MAC) can refuse it.
     *
     * @return iterable<string, array{callable(string): string}>
     */
    public static function trailers(): iterable
    {
        yield 'a byte' => [static fn (string $s): string => $s . "\0"];
        yield 'a full chunk of zeros' => [static fn (string $s): string => $s . str_repeat("\0", self::CHUNK + self::ABYTES)];
        yield 'the FINAL chunk again' => [static fn (string $s): string => $s . substr($s, -(self::CHUNK + self::ABYTES))];
        yield 'the whole stream again' => [static fn (string $s): string => $s . $s];
    }

    /**
     * @dataProvider trailers
     * @param callable(string): string $append
     */
     #[DataProvider('trailers')]
    public function testBytesAfterAFullSizeFinalChunkAreRefused(callable $append): void
    {
        $key = sodium_crypto_secretstream_xchacha20poly1305_keygen();
        $plaintext = random_bytes(2 * self::CHUNK);
        $stream = self::encrypt($plaintext, '', $key);
        self::assertSame(self::HEADER + 2 * (self::CHUNK + self::ABYTES), strlen($stream), 'the FINAL chunk is full-size');
        self::assertSame($plaintext, self::decrypt($stream, '', $key));
        $this->expectException(RuntimeException::class);
        $this->expectExceptionMessage(self::REFUSED);
        self::decrypt($append($stream), '', $key);
    }

    public function testAStreamBuiltHereWithTheTwoTagsOfTheFormatDecrypts(): void
    {
        // The builder the tag tests below use makes what secretstream_encrypt() makes.
        $key = sodium_crypto_secretstream_xchacha20poly1305_keygen();
        $chunks = [random_bytes(self::CHUNK), random_bytes(self::CHUNK), random_bytes(5)];
        $message = SODIUM_CRYPTO_SECRETSTREAM_XCHACHA20POLY1305_TAG_MESSAGE;
        $final = SODIUM_CRYPTO_SECRETSTREAM_XCHACHA20POLY1305_TAG_FINAL;
        $stream = self::withTags($key, 'a.tar', [[$chunks[0], $message], [$chunks[1], $message], [$chunks[2], $final]]);
        self::assertSame(implode('', $chunks), self::decrypt($stream, 'a.tar', $key));
    }

    /**
     * Where a chunk with another tag can stand, and the one tag the recipe takes there: MESSAGE on each
     * chunk before the last (FINAL there is refused too: chunks follow it), FINAL on the last one (short or
     * full-size), and on the only one. The chunks as plaintext, tag.
     *
     * @return iterable<string, array{callable(int): list<array{string, int}>, int}>
     */
    public static function tagPlaces(): iterable
    {
        $full = str_repeat('p', self::CHUNK);
        $message = SODIUM_CRYPTO_SECRETSTREAM_XCHACHA20POLY1305_TAG_MESSAGE;
        $final = SODIUM_CRYPTO_SECRETSTREAM_XCHACHA20POLY1305_TAG_FINAL;
        yield 'the first of three chunks' => [static fn (int $tag): array => [[$full, $tag], [$full, $message], ['end', $final]], $message];
        yield 'the chunk before the FINAL one' => [static fn (int $tag): array => [[$full, $message], [$full, $tag], ['end', $final]], $message];
        yield 'the last chunk, short' => [static fn (int $tag): array => [[$full, $message], ['end', $tag]], $final];
        yield 'the last chunk, full-size' => [static fn (int $tag): array => [[$full, $message], [$full, $tag]], $final];
        yield 'the only chunk' => [static fn (int $tag): array => [['end', $tag]], $final];
        yield 'the only chunk, empty' => [static fn (int $tag): array => [['', $tag]], $final];
    }

    /**
     * Every tag byte: PUSH (1), REKEY (2), every value with bits libsodium does not define (4 to 255), and
     * MESSAGE or FINAL where the other belongs. libsodium authenticates them all (and rekeys both sides on
     * REKEY), so only the recipe's checks refuse a chunk before FINAL that carries one.
     *
     * @dataProvider tagPlaces
     * @param callable(int): list<array{string, int}> $chunks
     */
    #[DataProvider('tagPlaces')]
    public function testEveryTagButTheOneOfItsPlaceIsRefused(callable $chunks, int $valid): void
    {
        $key = sodium_crypto_secretstream_xchacha20poly1305_keygen();
        $accepted = [];
        foreach (range(0, 255) as $tag) {
            try {
                $plaintext = self::decrypt(self::withTags($key, '', $chunks($tag)), '', $key);
                self::assertSame(implode('', array_column($chunks($tag), 0)), $plaintext);
                $accepted[] = $tag;
            } catch (RuntimeException $e) {
                self::assertSame(self::REFUSED, $e->getMessage());
            }
        }
        self::assertSame([$valid], $accepted);
    }

    public function testStreamsThatMoveAFewBytesACallAreReadAndWrittenWhole(): void
    {
        // A pipe or a socket: fread() gives less than asked before the end, fwrite() takes less than given.
        $key = sodium_crypto_secretstream_xchacha20poly1305_keygen();
        $plaintext = random_bytes(3 * self::CHUNK + 5);
        $encrypted = TrickleStream::open('', 5);
        secretstream_encrypt(TrickleStream::open($plaintext, 7), $encrypted, 'a.tar', $key, self::CHUNK);
        $stream = TrickleStream::contents($encrypted);
        self::assertSame(self::HEADER + strlen($plaintext) + 4 * self::ABYTES, strlen($stream));
        self::assertSame($plaintext, self::decrypt($stream, 'a.tar', $key));

        $decrypted = TrickleStream::open('', 11);
        secretstream_decrypt(TrickleStream::open($stream, 3), $decrypted, 'a.tar', $key, self::CHUNK);
        self::assertSame($plaintext, TrickleStream::contents($decrypted));
    }

    public function testAnInputThatCannotBeReadIsSaidSo(): void
    {
        $key = sodium_crypto_secretstream_xchacha20poly1305_keygen();
        foreach (['secretstream_encrypt', 'secretstream_decrypt'] as $function) {
            try {
                $function(TrickleStream::open('', 5, 'read'), self::stream(''), '', $key, self::CHUNK);
                self::fail("expected {$function}() to say the input could not be read");
            } catch (RuntimeException $e) {
                self::assertSame('could not read the input stream', $e->getMessage(), $function);
            }
        }
    }

    /** @return iterable<string, array{string}> */
    public static function failingWrites(): iterable
    {
        yield 'fwrite() writes nothing' => ['write 0'];
        yield 'fwrite() fails' => ['write false'];
    }

    /** @dataProvider failingWrites */
    #[DataProvider('failingWrites')]
    public function testAnOutputThatCannotBeWrittenIsSaidSo(string $failing): void
    {
        $key = sodium_crypto_secretstream_xchacha20poly1305_keygen();
        $stream = self::encrypt('attack at dawn', '', $key);
        foreach ([
            'encrypt' => static fn () => secretstream_encrypt(self::stream('attack at dawn'), TrickleStream::open('', 5, $failing), '', $key, self::CHUNK),
            'decrypt' => static fn () => secretstream_decrypt(self::stream($stream), TrickleStream::open('', 5, $failing), '', $key, self::CHUNK),
        ] as $what => $call) {
            try {
                $call();
                self::fail("expected {$what} to say the output could not be written");
            } catch (RuntimeException $e) {
                self::assertSame('could not write the output stream', $e->getMessage(), $what);
            }
        }
    }

    public function testChunksOfOneByteWork(): void
    {
        $key = sodium_crypto_secretstream_xchacha20poly1305_keygen();
        $stream = self::encrypt('abc', '', $key, 1);
        self::assertSame(self::HEADER + 3 * (1 + self::ABYTES), strlen($stream));
        self::assertSame('abc', self::decrypt($stream, '', $key, 1));
    }

    public function testAStreamOfAnotherSessionCannotBeSplicedIn(): void
    {
        // Same key, two streams: the second's chunk 1 in place of the first's.
        $key = sodium_crypto_secretstream_xchacha20poly1305_keygen();
        $first = self::encrypt(random_bytes(200), '', $key);
        $second = self::encrypt(random_bytes(200), '', $key);
        $size = self::CHUNK + self::ABYTES;
        $spliced = substr($first, 0, self::HEADER + $size) . substr($second, self::HEADER + $size, $size) . substr($first, self::HEADER + 2 * $size);
        $this->expectException(RuntimeException::class);
        $this->expectExceptionMessage(self::REFUSED);
        self::decrypt($spliced, '', $key);
    }

    public function testOtherAssociatedDataIsRefused(): void
    {
        $key = sodium_crypto_secretstream_xchacha20poly1305_keygen();
        $stream = self::encrypt('attack at dawn', 'backups/2026-01-31.tar', $key);
        $this->expectException(RuntimeException::class);
        $this->expectExceptionMessage(self::REFUSED);
        self::decrypt($stream, 'backups/2026-02-01.tar', $key);
    }

    public function testAnotherChunkSizeIsRefused(): void
    {
        $key = sodium_crypto_secretstream_xchacha20poly1305_keygen();
        $stream = self::encrypt(random_bytes(200), '', $key);
        $this->expectException(RuntimeException::class);
        $this->expectExceptionMessage(self::REFUSED);
        self::decrypt($stream, '', $key, 2 * self::CHUNK);
    }

    public function testAnotherKeyIsRefused(): void
    {
        $stream = self::encrypt('attack at dawn', '', sodium_crypto_secretstream_xchacha20poly1305_keygen());
        $this->expectException(RuntimeException::class);
        $this->expectExceptionMessage(self::REFUSED);
        self::decrypt($stream, '', sodium_crypto_secretstream_xchacha20poly1305_keygen());
    }

    public function testAStreamCutShortHasWrittenItsFirstChunksButThrows(): void
    {
        // Why the comment says to use the output only after the function returns.
        $key = sodium_crypto_secretstream_xchacha20poly1305_keygen();
        $plaintext = random_bytes(200);
        $cut = substr(self::encrypt($plaintext, '', $key), 0, self::HEADER + 2 * (self::CHUNK + self::ABYTES));
        $output = self::stream('');
        try {
            secretstream_decrypt(self::stream($cut), $output, '', $key, self::CHUNK);
            self::fail('expected the stream to be refused');
        } catch (RuntimeException $e) {
            self::assertSame(self::REFUSED, $e->getMessage());
        }
        rewind($output);
        self::assertSame(substr($plaintext, 0, 2 * self::CHUNK), stream_get_contents($output));
    }

    /** @return iterable<string, array{int}> */
    public static function wrongKeyLengths(): iterable
    {
        yield 'empty' => [0];
        yield '16 bytes' => [16];
        yield '31 bytes' => [31];
        yield '33 bytes' => [33];
        yield '64 bytes (hex of a key)' => [64];
    }

    /** @dataProvider wrongKeyLengths */
    #[DataProvider('wrongKeyLengths')]
    public function testAKeyOfAnotherLengthIsRefusedBothWays(int $bytes): void
    {
        $key = str_repeat('k', $bytes);
        $stream = self::encrypt('x', '', sodium_crypto_secretstream_xchacha20poly1305_keygen());
        foreach ([static fn () => self::encrypt('x', '', $key), static fn () => self::decrypt($stream, '', $key)] as $call) {
            try {
                $call();
                self::fail('expected the key to be refused');
            } catch (InvalidArgumentException $e) {
                self::assertSame(sprintf('expected a 32-byte key, got %d bytes', $bytes), $e->getMessage());
            }
        }
    }

    public function testWhatIsNotAStreamOrAChunkSizeIsRefused(): void
    {
        $key = sodium_crypto_secretstream_xchacha20poly1305_keygen();
        try {
            secretstream_encrypt('/etc/passwd', self::stream(''), '', $key);
            self::fail('expected a file name to be refused');
        } catch (InvalidArgumentException $e) {
            self::assertSame('expected two open streams, got string and resource (stream)', $e->getMessage());
        }
        try {
            secretstream_decrypt(self::stream('x'), '/tmp/plaintext', '', $key);
            self::fail('expected a file name to be refused as the output');
        } catch (InvalidArgumentException $e) {
            self::assertSame('expected two open streams, got resource (stream) and string', $e->getMessage());
        }
        $this->expectException(InvalidArgumentException::class);
        $this->expectExceptionMessage('expected chunks of at least 1 byte, got 0');
        secretstream_encrypt(self::stream('x'), self::stream(''), '', $key, 0);
    }

    private static function encrypt(string $plaintext, string $associatedData, string $key, int $chunk = self::CHUNK): string
    {
        $output = self::stream('');
        secretstream_encrypt(self::stream($plaintext), $output, $associatedData, $key, $chunk);
        rewind($output);
        return (string) stream_get_contents($output);
    }

    private static function decrypt(string $stream, string $associatedData, string $key, int $chunk = self::CHUNK): string
    {
        $output = self::stream('');
        secretstream_decrypt(self::stream($stream), $output, $associatedData, $key, $chunk);
        rewind($output);
        return (string) stream_get_contents($output);
    }

    /**
     * A stream in the recipe's format (header ‖ chunks), each chunk pushed with the tag given.
     *
     * @param list<array{string, int}> $chunks plaintext, tag
     */
    private static function withTags(string $key, string $associatedData, array $chunks): string
    {
        [$state, $stream] = sodium_crypto_secretstream_xchacha20poly1305_init_push($key);
        foreach ($chunks as [$plaintext, $tag]) {
            $stream .= sodium_crypto_secretstream_xchacha20poly1305_push($state, $plaintext, $associatedData, $tag);
        }
        return $stream;
    }

    /** @return resource a stream holding $bytes, at its start */
    private static function stream(string $bytes)
    {
        $stream = fopen('php://memory', 'w+b');
        self::assertIsResource($stream);
        fwrite($stream, $bytes);
        rewind($stream);
        return $stream;
    }
}
