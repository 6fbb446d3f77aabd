<?php

declare(strict_types=1);

namespace PhpCryptoBench\Jws;

use PhpCryptoBench\Exception\MalformedToken;
use PhpCryptoBench\Exception\SignatureRejected;
use PhpCryptoBench\Exception\VerificationFailed;
use PhpCryptoBench\Exception\WeakKey;
use PhpCryptoBench\Io\JsonFile;
use PhpCryptoBench\Verification\VectorReport;

/**
 * Wycheproof signature vectors through the same layer the JWS code uses: each group's JWK is
 * imported by Jwk::import() and each signature checked by the algorithm's verify(); a rejection by
 * exception (a wrong length) counts as "invalid".
 */
final class WycheproofSignatureSuite
{
    /** File => JWS algorithm whose verify() must give Wycheproof's answer. */
    public const FILES = [
        'ecdsa_secp256r1_sha256_p1363_test.json' => 'ES256',
        'ecdsa_secp384r1_sha384_p1363_test.json' => 'ES384',
        'ecdsa_secp521r1_sha512_p1363_test.json' => 'ES512',
        'ed25519_test.json' => 'EdDSA',
        'rsa_signature_2048_sha256_test.json' => 'RS256',
        'rsa_signature_4096_sha512_test.json' => 'RS512',
    ];

    public function __construct(private readonly string $vectorDirectory)
    {
    }

    /** @return list<VectorReport> */
    public function runAll(): array
    {
        return array_map(fn (string $file): VectorReport => $this->run($file), array_keys(self::FILES));
    }

    public function run(string $file): VectorReport
    {
        $algorithm = Algorithms::named(self::FILES[$file]);
        $passed = 0;
        $skipped = [];
        foreach (JsonFile::read($this->vectorDirectory . '/' . $file, 'vector file missing')['testGroups'] as $group) {
            $jwk = $group['publicKeyJwk'] ?? $group['keyJwk'] ?? null;
            // A few groups (keys on the curve's edge) come without a JWK: their PEM is read instead.
            $material = is_array($jwk) ? Jwk::import($jwk) : openssl_pkey_get_public((string) $group['publicKeyPem']);
            $key = self::key($algorithm, $material);
            foreach ($group['tests'] as $test) {
                if ($test['result'] === 'acceptable') {
                    $skipped['"acceptable": legacy encodings Wycheproof lets a verifier take or refuse'] = ($skipped['"acceptable": legacy encodings Wycheproof lets a verifier take or refuse'] ?? 0) + 1;
                    continue;
                }
                $valid = self::verifies($algorithm, $key, (string) hex2bin((string) $test['msg']), (string) hex2bin((string) $test['sig']));
                if ($valid !== ($test['result'] === 'valid')) {
                    throw VerificationFailed::vectorMismatch($file, (int) $test['tcId'], (string) $test['result'], $valid ? 'valid' : 'invalid');
                }
                $passed++;
            }
        }
        return new VectorReport($file, $algorithm->name() . ' (JWS signature layer)', $passed, $skipped);
    }

    /** The group's key as a verifier holds it; null when the algorithm refuses it (then nothing verifies). */
    private static function key(Algorithm $algorithm, mixed $material): ?Key
    {
        try {
            return Key::forVerification($algorithm, $material);
        } catch (WeakKey) {
            return null;
        }
    }

    private static function verifies(Algorithm $algorithm, ?Key $key, string $message, string $signature): bool
    {
        if ($key === null) {
            return false;
        }
        try {
            return $algorithm->verify($key, $message, $signature);
        } catch (SignatureRejected|MalformedToken) {
            return false;
        }
    }
}
