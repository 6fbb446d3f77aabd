<?php

declare(strict_types=1);

namespace PhpCryptoBench\Pitfalls;

use PhpCryptoBench\Exception\VerificationFailed;
use PhpCryptoBench\Native\NativePrimitive;
use RuntimeException;

/**
 * A record of 64 fields of 16 bytes sealed with AES-256-GCM by the code the site shows
 * (runners/snippets/record-in-one-call.php): one AEAD call per field, each with its own random nonce
 * and its place authenticated (record_seal_field_by_field), against one call for the whole record,
 * its fields length-prefixed (record_seal). The native counterpart: `openssl speed -evp aes-256-gcm
 * -bytes 16`, one 16-byte block per operation with the context set up once.
 *
 * Pitfall `cipher-setup-16b` (AES-128-CBC, unauthenticated, one openssl_encrypt() per field or per
 * record) was measured in its place until issue 25; its runs keep that name.
 */
final class AeadCallPerField implements Pitfall
{
    public const NAME = 'aead-call-per-field';
    public const SNIPPET = 'runners/snippets/record-in-one-call.php';
    public const FIELDS = 64;
    public const FIELD_BYTES = 16;
    private const CIPHER = 'aes-256-gcm';
    private const PLACE = 'pitfalls: a record of 64 fields';
    private const FUNCTIONS = ['record_seal', 'record_open', 'record_seal_field_by_field', 'record_open_field_by_field'];

    private readonly string $key;
    /** @var list<string> */
    private readonly array $fields;

    public function __construct(string $snippet)
    {
        if (!is_file($snippet)) {
            throw VerificationFailed::operationFailed(self::NAME, sprintf('expected the snippet %s, found none', $snippet));
        }
        require_once $snippet;
        $missing = array_values(array_filter(self::FUNCTIONS, static fn (string $name): bool => !function_exists($name)));
        if ($missing !== []) {
            throw VerificationFailed::knownAnswerMismatch(self::NAME, sprintf('%s to define %s', $snippet, implode(', ', self::FUNCTIONS)), 'no ' . implode(', ', $missing));
        }
        $this->key = random_bytes(32);
        $fields = [];
        for ($i = 0; $i < self::FIELDS; $i++) {
            $fields[] = random_bytes(self::FIELD_BYTES);
        }
        $this->fields = $fields;
    }

    public function name(): string
    {
        return self::NAME;
    }

    /** What is wrong with the sealed messages (a list, one per field) once opened: null if they give the fields back. */
    private function perFieldProblem(mixed $sealed): ?string
    {
        return $this->problem(static fn (string $key): array => record_open_field_by_field(is_array($sealed) ? $sealed : [], self::PLACE, $key));
    }

    /** What is wrong with the sealed record once opened: null if it gives the fields back. */
    private function perRecordProblem(mixed $sealed): ?string
    {
        return $this->problem(static fn (string $key): array => record_open(is_string($sealed) ? $sealed : '', self::PLACE, $key));
    }

    /** @param callable(string): list<string> $open */
    private function problem(callable $open): ?string
    {
        try {
            $fields = $open($this->key);
        } catch (RuntimeException $e) {
            return 'expected the fields back, opening failed: ' . $e->getMessage();
        }
        return $fields === $this->fields ? null : sprintf('expected the %d fields back, got %d that differ', self::FIELDS, count($fields));
    }

    public function variants(): array
    {
        $bytes = self::FIELDS * self::FIELD_BYTES;
        return [
            new PitfallCase(self::NAME, 'call-per-field', fn (): array => record_seal_field_by_field($this->fields, self::PLACE, $this->key), $this->perFieldProblem(...), self::FIELDS, $bytes),
            new PitfallCase(self::NAME, 'call-per-record', fn (): string => record_seal($this->fields, self::PLACE, $this->key), $this->perRecordProblem(...), self::FIELDS, $bytes),
        ];
    }

    public function agreement(): string
    {
        [$slow, $fast] = $this->variants();
        $perField = $slow->once();
        $perRecord = $fast->once();
        // Both ways refuse a change: the record's first length prefix, and the second field's message.
        $tampered = $perRecord;
        $tampered[12 + 16] = chr(ord($tampered[12 + 16]) ^ 1);
        $swapped = [$perField[1], $perField[0], ...array_slice($perField, 2)];
        $refused = [$this->perRecordProblem($tampered) !== null, $this->perFieldProblem($swapped) !== null];
        if ($refused !== [true, true]) {
            throw VerificationFailed::knownAnswerMismatch(self::NAME, 'a changed record and two swapped fields refused', json_encode($refused) ?: 'other answers');
        }
        return sprintf('%s: %d fields sealed by %s one AEAD call each, and as one record, both open to the same %d bytes; a changed length prefix and two swapped fields are refused', self::NAME, self::FIELDS, self::SNIPPET, self::FIELDS * self::FIELD_BYTES);
    }

    public function native(): ?NativePrimitive
    {
        return NativePrimitive::cipher(self::CIPHER, self::FIELD_BYTES);
    }
}
