<?php

declare(strict_types=1);

/*
 * A record of fields (a row's secret columns, say) encrypted in ONE authenticated call: each field is
 * prefixed with its length (4 bytes, big-endian), the whole record is sealed by aes256gcm_seal()
 * (a random nonce, the full tag), and opening it parses the lengths back strictly. Joining the fields
 * without their lengths would lose where one ends and the next begins; encrypting them one call each
 * pays the cipher's set-up per field (see record_seal_field_by_field(), the slow way, below).
 *
 * The key and $associatedData: as in aes-256-gcm.php, which this file needs beside it (32 random
 * bytes kept outside the code and the database; the record's place, e.g. "users:42").
 *
 *   $sealed = record_seal($fields, $associatedData, $key);  // one AEAD call for the whole record
 *   $fields = record_open($sealed, $associatedData, $key);  // throws unless intact
 *
 * PHPUnit runs this file: runners/tests/Snippets/RecordInOneCallTest.php (phpcrypto-bench), and the
 * benchmark times both ways (pitfall aead-call-per-field).
 */

require_once __DIR__ . '/aes-256-gcm.php';

/** @param list<string> $fields */
function record_seal(array $fields, string $associatedData, #[\SensitiveParameter] string $key): string
{
    return aes256gcm_seal(record_encode($fields), $associatedData, $key);
}

/**
 * @return list<string>
 * @throws RuntimeException when the record was changed, cut, or sealed with another key or other associated data
 */
function record_open(string $sealed, string $associatedData, #[\SensitiveParameter] string $key): array
{
    return record_decode(aes256gcm_open($sealed, $associatedData, $key));
}

/** @param list<string> $fields */
function record_encode(array $fields): string
{
    if (!array_is_list($fields)) {
        throw new InvalidArgumentException('expected the fields as a list, in order');
    }
    $encoded = '';
    foreach ($fields as $index => $field) {
        if (!is_string($field)) {
            throw new InvalidArgumentException(sprintf('field %d: expected a string, got %s', $index, get_debug_type($field)));
        }
        if (strlen($field) > 0xFFFFFFFF) {
            throw new InvalidArgumentException(sprintf('field %d: expected at most 4 GiB - 1 bytes, got %d', $index, strlen($field)));
        }
        $encoded .= pack('N', strlen($field)) . $field;
    }
    return $encoded;
}

/**
 * The strict way back: every length prefix whole, every field as long as its prefix says, nothing left over.
 *
 * @return list<string>
 */
function record_decode(string $encoded): array
{
    $fields = [];
    $offset = 0;
    $end = strlen($encoded);
    while ($offset < $end) {
        if ($end - $offset < 4) {
            throw new RuntimeException(sprintf('malformed record: a length prefix cut short at byte %d', $offset));
        }
        $length = unpack('N', $encoded, $offset)[1];
        $offset += 4;
        if ($length > $end - $offset) {
            throw new RuntimeException(sprintf('malformed record: field %d says %d bytes, %d are left', count($fields), $length, $end - $offset));
        }
        $fields[] = substr($encoded, $offset, $length);
        $offset += $length;
    }
    return $fields;
}

/*
 * The slow way, for comparison: one AEAD call per field,
 *
 *   $sealed = record_seal_field_by_field($fields, $associatedData, $key);  // a list, one message per field
 *   $fields = record_open_field_by_field($sealed, $associatedData, $key);
 *
 * Each field's index and the number of fields are authenticated with it, so fields cannot be
 * reordered, dropped or added unnoticed; but each call sets the cipher up again and adds a nonce and
 * a tag (28 bytes) per field. Prefer record_seal().
 */

/**
 * @param list<string> $fields
 * @return list<string>
 */
function record_seal_field_by_field(array $fields, string $associatedData, #[\SensitiveParameter] string $key): array
{
    $sealed = [];
    foreach (array_values($fields) as $index => $field) {
        $sealed[] = aes256gcm_seal($field, $associatedData . pack('NN', $index, count($fields)), $key);
    }
    return $sealed;
}

/**
 * @param list<string> $sealed
 * @return list<string>
 */
function record_open_field_by_field(array $sealed, string $associatedData, #[\SensitiveParameter] string $key): array
{
    $fields = [];
    foreach (array_values($sealed) as $index => $message) {
        $fields[] = aes256gcm_open($message, $associatedData . pack('NN', $index, count($sealed)), $key);
    }
    return $fields;
}
