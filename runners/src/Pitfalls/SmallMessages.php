<?php

declare(strict_types=1);

namespace PhpCryptoBench\Pitfalls;

use PhpCryptoBench\Exception\VerificationFailed;
use PhpCryptoBench\Native\NativePrimitive;

/**
 * A record of 64 fields of 16 bytes encrypted with AES-128-CBC: one openssl_encrypt() per field
 * (each call sets up the cipher again) against one call for the whole record. Each message gets a
 * random IV and PKCS#7 padding. The native counterpart: `openssl speed -evp aes-128-cbc -bytes 16`,
 * one 16-byte block per operation with the context set up once.
 */
final class SmallMessages implements Pitfall
{
    public const NAME = 'cipher-setup-16b';
    public const FIELDS = 64;
    public const FIELD_BYTES = 16;
    private const CIPHER = 'aes-128-cbc';

    private readonly string $key;
    /** @var list<string> */
    private readonly array $fields;

    public function __construct()
    {
        $this->key = random_bytes(16);
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

    /** @return list<array{string, string|false}> IV and ciphertext per message */
    private function perField(): array
    {
        $messages = [];
        foreach ($this->fields as $field) {
            $iv = random_bytes(16);
            $messages[] = [$iv, openssl_encrypt($field, self::CIPHER, $this->key, OPENSSL_RAW_DATA, $iv)];
        }
        return $messages;
    }

    /** @return list<array{string, string|false}> */
    private function perRecord(): array
    {
        $iv = random_bytes(16);
        return [[$iv, openssl_encrypt(implode('', $this->fields), self::CIPHER, $this->key, OPENSSL_RAW_DATA, $iv)]];
    }

    /** What is wrong with the messages: decrypted and joined, they must be the record's fields. */
    private function problem(mixed $messages): ?string
    {
        $plain = '';
        foreach (is_array($messages) ? $messages : [] as [$iv, $ciphertext]) {
            $plain .= $ciphertext === false ? '' : (string) openssl_decrypt($ciphertext, self::CIPHER, $this->key, OPENSSL_RAW_DATA, $iv);
        }
        return $plain === implode('', $this->fields) ? null : sprintf('expected the %d fields back, got %d bytes that differ', self::FIELDS, strlen($plain));
    }

    public function variants(): array
    {
        $bytes = self::FIELDS * self::FIELD_BYTES;
        return [
            new PitfallCase(self::NAME, 'call-per-field', fn (): array => $this->perField(), $this->problem(...), self::FIELDS, $bytes),
            new PitfallCase(self::NAME, 'call-per-record', fn (): array => $this->perRecord(), $this->problem(...), self::FIELDS, $bytes),
        ];
    }

    public function agreement(): string
    {
        [$slow, $fast] = $this->variants();
        $perField = $slow->once();
        $perRecord = $fast->once();
        if (count($perField) !== self::FIELDS || count($perRecord) !== 1) {
            throw VerificationFailed::knownAnswerMismatch(self::NAME, sprintf('%d messages one way, 1 the other', self::FIELDS), sprintf('%d and %d', count($perField), count($perRecord)));
        }
        return sprintf('%s: %d fields encrypted one call each, and as one record, both decrypt to the same %d bytes', self::NAME, self::FIELDS, self::FIELDS * self::FIELD_BYTES);
    }

    public function native(): ?NativePrimitive
    {
        return NativePrimitive::cipher(self::CIPHER, self::FIELD_BYTES);
    }
}
