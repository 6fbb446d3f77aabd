<?php

declare(strict_types=1);

namespace PhpCryptoBench\Exception;

use RuntimeException;

/** A known answer, round trip or tamper check failed: nothing of that experiment may be timed. */
final class VerificationFailed extends RuntimeException implements BenchException
{
    public static function vectorMismatch(string $source, int $tcId, string $expected, string $actual): self
    {
        return new self(sprintf('%s tcId %d: expected %s, got %s', $source, $tcId, $expected, $actual));
    }

    public static function knownAnswerMismatch(string $source, string $expected, string $actual): self
    {
        return new self(sprintf('%s: expected %s, got %s', $source, $expected, $actual));
    }

    public static function enginesDisagree(string $pair, int $plaintextBytes, int $leftBytes, int $rightBytes): self
    {
        return new self(sprintf(
            '%s: expected equal ciphertexts for a %d-byte plaintext, got %d and %d bytes that differ',
            $pair,
            $plaintextBytes,
            $leftBytes,
            $rightBytes,
        ));
    }

    public static function tamperAccepted(string $algorithm, string $tampering): self
    {
        return new self(sprintf('%s: expected rejection of %s, but decryption succeeded', $algorithm, $tampering));
    }

    public static function roundTripMismatch(string $case, int $expectedBytes, int $actualBytes): self
    {
        return new self(sprintf(
            '%s: round trip expected the %d-byte plaintext back, got %d bytes that differ',
            $case,
            $expectedBytes,
            $actualBytes,
        ));
    }

    public static function operationFailed(string $case, string $detail): self
    {
        return new self(sprintf('%s: expected a result, the operation failed (%s)', $case, $detail));
    }
}
