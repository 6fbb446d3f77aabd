<?php

declare(strict_types=1);

namespace PhpCryptoBench\Aead;

use Closure;
use PhpCryptoBench\Exception\InvalidAeadParameter;
use PhpCryptoBench\Exception\VerificationFailed;
use PhpCryptoBench\Io\JsonFile;
use PhpCryptoBench\Verification\VectorReport;

/**
 * Runs Wycheproof AEAD vectors through an AeadAlgorithm: valid vectors must encrypt to the
 * expected ciphertext and tag and decrypt back; invalid ones must be rejected.
 */
final class WycheproofAeadSuite
{
    public function __construct(private readonly string $vectorDirectory)
    {
    }

    /**
     * @param Closure(int $keyBits, int $nonceBits, int $tagBits): ?AeadAlgorithm $algorithmFor
     *        null when a group is not for this algorithm (another key size); throws InvalidAeadParameter
     *        when the algorithm refuses the group's lengths.
     */
    public function run(string $file, string $label, Closure $algorithmFor): VectorReport
    {
        $passed = 0;
        $skipped = [];
        foreach ($this->load($file)['testGroups'] as $group) {
            try {
                $aead = $algorithmFor((int) $group['keySize'], (int) $group['ivSize'], (int) $group['tagSize']);
                $refusal = null;
            } catch (InvalidAeadParameter $e) {
                $aead = null;
                $refusal = $e->getMessage();
            }
            if ($aead === null && $refusal === null) {
                continue;
            }
            foreach ($group['tests'] as $test) {
                $outcome = $this->check($file, $aead, $refusal, $test);
                if ($outcome === null) {
                    $passed++;
                } else {
                    $skipped[$outcome] = ($skipped[$outcome] ?? 0) + 1;
                }
            }
        }
        return new VectorReport($file, $label, $passed, $skipped);
    }

    /**
     * @param array<string, mixed> $test
     * @return string|null null when the vector passed, else why it was skipped
     */
    private function check(string $file, ?AeadAlgorithm $aead, ?string $refusal, array $test): ?string
    {
        $result = (string) $test['result'];
        if ($result === 'acceptable') {
            return 'result "acceptable": either outcome is allowed';
        }
        if ($aead === null) {
            // The algorithm refused these lengths: right for an invalid vector, untestable for a valid one.
            // Grouped by rule, not by each refused length, so the report stays readable.
            return $result === 'invalid' ? null : 'valid, but the API refuses its lengths: ' . preg_replace('/, got \d+$/', '', (string) $refusal);
        }
        [$key, $nonce, $aad, $msg, $ct, $tag] = array_map(
            static fn (string $field): string => (string) hex2bin((string) $test[$field]),
            ['key', 'iv', 'aad', 'msg', 'ct', 'tag'],
        );
        $tcId = (int) $test['tcId'];
        try {
            $opened = $aead->decrypt(Sealed::separate($ct, $tag), $key, $nonce, $aad);
        } catch (InvalidAeadParameter) {
            $opened = null;
        }
        if ($result === 'invalid') {
            if ($opened !== null) {
                throw VerificationFailed::vectorMismatch($file, $tcId, 'rejection', 'a decrypted plaintext');
            }
            return null;
        }
        if ($opened !== $msg) {
            throw VerificationFailed::vectorMismatch($file, $tcId, 'the plaintext ' . bin2hex($msg), $opened === null ? 'rejection' : bin2hex($opened));
        }
        $sealed = $aead->encrypt($msg, $key, $nonce, $aad);
        $actual = bin2hex($sealed->ciphertext()) . '|' . bin2hex($sealed->tag());
        $expected = bin2hex($ct) . '|' . bin2hex($tag);
        if ($actual !== $expected) {
            throw VerificationFailed::vectorMismatch($file, $tcId, 'ciphertext|tag ' . $expected, $actual);
        }
        return null;
    }

    /** @return array{testGroups: list<array<string, mixed>>} */
    private function load(string $file): array
    {
        return JsonFile::read($this->vectorDirectory . '/' . $file, 'vector file missing');
    }
}
