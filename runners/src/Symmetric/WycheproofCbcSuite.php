<?php

declare(strict_types=1);

namespace PhpCryptoBench\Symmetric;

use Closure;
use PhpCryptoBench\Exception\CipherFailed;
use PhpCryptoBench\Exception\InvalidPadding;
use PhpCryptoBench\Exception\VerificationFailed;
use PhpCryptoBench\Io\JsonFile;
use PhpCryptoBench\Verification\VectorReport;

/** aes_cbc_pkcs5_test.json: valid vectors encrypt to the expected bytes; bad padding is rejected. */
final class WycheproofCbcSuite
{
    private const FILE = 'aes_cbc_pkcs5_test.json';

    public function __construct(private readonly string $vectorDirectory)
    {
    }

    /** @param Closure(int $keyBits): SymmetricCipher $cipherFor */
    public function run(string $label, Closure $cipherFor): VectorReport
    {
        $passed = 0;
        foreach (JsonFile::read($this->vectorDirectory . '/' . self::FILE, 'vector file missing')['testGroups'] as $group) {
            $cipher = $cipherFor((int) $group['keySize']);
            foreach ($group['tests'] as $test) {
                $this->check($cipher, $test);
                $passed++;
            }
        }
        return new VectorReport(self::FILE, $label, $passed, []);
    }

    /** @param array<string, mixed> $test */
    private function check(SymmetricCipher $cipher, array $test): void
    {
        [$key, $iv, $msg, $ct] = array_map(static fn (string $f): string => (string) hex2bin((string) $test[$f]), ['key', 'iv', 'msg', 'ct']);
        $tcId = (int) $test['tcId'];
        try {
            $opened = $cipher->decrypt($ct, $key, $iv);
        } catch (CipherFailed | InvalidPadding) {
            $opened = null;
        }
        if ($test['result'] === 'invalid') {
            if ($opened !== null) {
                throw VerificationFailed::vectorMismatch(self::FILE, $tcId, 'a padding error', 'a plaintext');
            }
            return;
        }
        if ($opened !== $msg) {
            throw VerificationFailed::vectorMismatch(self::FILE, $tcId, 'the plaintext ' . bin2hex($msg), $opened === null ? 'rejection' : bin2hex($opened));
        }
        $sealed = $cipher->encrypt($msg, $key, $iv);
        if ($sealed !== $ct) {
            throw VerificationFailed::vectorMismatch(self::FILE, $tcId, 'ciphertext ' . bin2hex($ct), bin2hex($sealed));
        }
    }
}
