<?php

declare(strict_types=1);

namespace PhpCryptoBench\Pq;

use PhpCryptoBench\Exception\VerificationFailed;
use PhpCryptoBench\Io\JsonFile;
use PhpCryptoBench\Verification\VectorReport;

/**
 * Wycheproof's ML-DSA verification vectors (MlDsaVerify) through PHP's openssl_verify(): each group's
 * public key (its SubjectPublicKeyInfo, as PEM) through openssl_pkey_get_public(), each signature
 * through openssl_verify($msg, $sig, $key, 0). Every valid vector must be accepted and every invalid
 * one refused: by openssl_verify(), or already when its key does not load (a public key of the wrong
 * length). What PHP cannot run is counted with why: a non-empty context string, which openssl_verify()
 * has no parameter for, and a valid vector whose key PHP cannot load.
 */
final class WycheproofMlDsaSuite
{
    /** File => the parameter set its vectors are of. */
    public const FILES = [
        'mldsa_44_verify_test.json' => 'ML-DSA-44',
        'mldsa_65_verify_test.json' => 'ML-DSA-65',
        'mldsa_87_verify_test.json' => 'ML-DSA-87',
    ];
    public const CONTEXT = 'a context string: openssl_verify() takes none (it verifies with the empty context)';
    public const KEY_NOT_LOADED = 'a valid key PHP cannot load';

    public function __construct(private readonly string $vectorDirectory)
    {
    }

    /** @return list<array{report: VectorReport, outcomes: array<string, int>}> */
    public function runAll(): array
    {
        return array_map(fn (string $file): array => $this->run($file), array_keys(self::FILES));
    }

    /**
     * The file's report, and its outcomes: valid vectors accepted, invalid ones refused by
     * openssl_verify() and refused when their key did not load, and vectors not run.
     *
     * @return array{report: VectorReport, outcomes: array<string, int>}
     * @throws VerificationFailed on the first vector PHP answers wrongly
     */
    public function run(string $file): array
    {
        $document = JsonFile::read($this->vectorDirectory . '/' . $file, 'vector file missing');
        $outcomes = ['valid_accepted' => 0, 'invalid_refused' => 0, 'invalid_key_refused' => 0, 'not_run' => 0];
        $skipped = [];
        foreach ($document['testGroups'] as $group) {
            $key = openssl_pkey_get_public(self::pem((string) hex2bin((string) $group['publicKeyDer'])));
            self::clearErrors();
            foreach ($group['tests'] as $test) {
                $valid = $test['result'] === 'valid';
                $reason = match (true) {
                    ($test['ctx'] ?? '') !== '' => self::CONTEXT,
                    $key === false && $valid => self::KEY_NOT_LOADED,
                    default => null,
                };
                if ($reason !== null) {
                    $skipped[$reason] = ($skipped[$reason] ?? 0) + 1;
                    $outcomes['not_run']++;
                    continue;
                }
                if ($key === false) {
                    $outcomes['invalid_key_refused']++;
                    continue;
                }
                $accepted = openssl_verify((string) hex2bin((string) $test['msg']), (string) hex2bin((string) $test['sig']), $key, 0) === 1;
                self::clearErrors();
                if ($accepted !== $valid) {
                    throw VerificationFailed::vectorMismatch($file, (int) $test['tcId'], (string) $test['result'], $accepted ? 'valid (accepted)' : 'invalid (refused)');
                }
                $outcomes[$valid ? 'valid_accepted' : 'invalid_refused']++;
            }
        }
        $passed = $outcomes['valid_accepted'] + $outcomes['invalid_refused'] + $outcomes['invalid_key_refused'];
        return ['report' => new VectorReport($file, self::FILES[$file] . ' (openssl_verify)', $passed, $skipped), 'outcomes' => $outcomes];
    }

    public static function pem(string $der): string
    {
        return "-----BEGIN PUBLIC KEY-----\n" . chunk_split(base64_encode($der), 64, "\n") . "-----END PUBLIC KEY-----\n";
    }

    private static function clearErrors(): void
    {
        while (openssl_error_string() !== false) {
            // a refused key or signature leaves errors queued; the next call must start clean
        }
    }
}
