<?php

declare(strict_types=1);

namespace PhpCryptoBench\Aead;

use PhpCryptoBench\Exception\VerificationFailed;

/**
 * Before secretstream is timed: a stream of several chunks opens, and every change a stream can
 * suffer is refused: a flipped bit, its end cut off, chunks reordered, dropped or repeated, a chunk
 * after the FINAL one, another key or other associated data.
 */
final class SecretstreamCheck
{
    /** Small chunks, so that a short message has several. */
    private const CHUNK_BYTES = 64;

    /** @return list<string> the changes that were refused */
    public static function run(): array
    {
        $key = sodium_crypto_secretstream_xchacha20poly1305_keygen();
        $plaintext = random_bytes(4 * self::CHUNK_BYTES + 5);
        [$header, $chunks] = Secretstream::encrypt($plaintext, $key, 'aad', self::CHUNK_BYTES);
        $opened = Secretstream::decrypt($header, $chunks, $key, 'aad');
        if ($opened === null || implode('', $opened) !== $plaintext) {
            throw VerificationFailed::roundTripMismatch(Secretstream::NAME, strlen($plaintext), $opened === null ? 0 : strlen(implode('', $opened)));
        }
        [, $other] = Secretstream::encrypt($plaintext, $key, 'aad', self::CHUNK_BYTES);
        $flipped = $chunks;
        $flipped[1][3] = chr(ord($flipped[1][3]) ^ 1);
        $attempts = [
            'a flipped bit in a chunk' => [$header, $flipped, $key, 'aad'],
            'a flipped bit in the header' => [chr(ord($header[0]) ^ 1) . substr($header, 1), $chunks, $key, 'aad'],
            'the FINAL chunk cut off (truncation)' => [$header, array_slice($chunks, 0, -1), $key, 'aad'],
            'two chunks swapped (reordering)' => [$header, [$chunks[0], $chunks[2], $chunks[1], ...array_slice($chunks, 3)], $key, 'aad'],
            'a chunk dropped' => [$header, [$chunks[0], ...array_slice($chunks, 2)], $key, 'aad'],
            'a chunk repeated' => [$header, [$chunks[0], ...$chunks], $key, 'aad'],
            'a chunk after the FINAL one' => [$header, [...$chunks, end($chunks)], $key, 'aad'],
            "another stream's chunk spliced in" => [$header, [$chunks[0], $other[1], ...array_slice($chunks, 2)], $key, 'aad'],
            'other associated data' => [$header, $chunks, $key, 'other'],
            'another key' => [$header, $chunks, sodium_crypto_secretstream_xchacha20poly1305_keygen(), 'aad'],
        ];
        foreach ($attempts as $change => [$candidateHeader, $candidateChunks, $candidateKey, $candidateAad]) {
            if (Secretstream::decrypt($candidateHeader, $candidateChunks, $candidateKey, $candidateAad) !== null) {
                throw VerificationFailed::tamperAccepted(Secretstream::NAME, $change);
            }
        }
        return array_keys($attempts);
    }
}
