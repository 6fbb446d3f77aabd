<?php

declare(strict_types=1);

namespace PhpCryptoBench\Tests\Aead;

use PhpCryptoBench\Aead\AeadAlgorithm;
use PhpCryptoBench\Aead\OpensslAead;
use PhpCryptoBench\Aead\SodiumAead;
use PhpCryptoBench\Aead\WycheproofAeadSuite;
use PhpCryptoBench\Exception\VerificationFailed;
use PhpCryptoBench\Tests\Support\TamperedDecryption;
use PHPUnit\Framework\TestCase;

final class WycheproofAeadSuiteTest extends TestCase
{
    private const VECTORS = REPOSITORY . '/vectors/wycheproof';

    public function testEveryGcmVectorPassesExceptNoncesLongerThanOpensslTakes(): void
    {
        $report = (new WycheproofAeadSuite(self::VECTORS))->run(
            'aes_gcm_test.json',
            'aes-gcm',
            static fn (int $key, int $nonce, int $tag): AeadAlgorithm => new OpensslAead("aes-$key-gcm", intdiv($nonce, 8), intdiv($tag, 8)),
        );
        self::assertSame(313, $report->passed);
        self::assertSame([
            'valid, but the API refuses its lengths: aes-128-gcm: expected a nonce of 1..256 bytes' => 1,
            'valid, but the API refuses its lengths: aes-192-gcm: expected a nonce of 1..256 bytes' => 1,
            'valid, but the API refuses its lengths: aes-256-gcm: expected a nonce of 1..256 bytes' => 1,
        ], $report->skipped);
    }

    public function testEveryCcmVectorPassesIncludingShortTagsAndOddNonces(): void
    {
        $report = (new WycheproofAeadSuite(self::VECTORS))->run(
            'aes_ccm_test.json',
            'aes-ccm',
            static fn (int $key, int $nonce, int $tag): AeadAlgorithm => new OpensslAead("aes-$key-ccm", intdiv($nonce, 8), intdiv($tag, 8)),
        );
        self::assertSame(552, $report->passed);
        self::assertSame(0, $report->skippedCount());
    }

    public function testXChaChaVectorsPassThroughSodium(): void
    {
        $report = (new WycheproofAeadSuite(self::VECTORS))->run(
            'xchacha20_poly1305_test.json',
            'xchacha',
            static fn (int $key, int $nonce, int $tag): AeadAlgorithm => SodiumAead::withLengths('xchacha20poly1305-ietf', intdiv($nonce, 8), intdiv($tag, 8)),
        );
        self::assertSame(315, $report->passed);
    }

    public function testSodiumAesGcmSkipsTheValidVectorsWithOtherNonceLengthsUnderOneReason(): void
    {
        if (!sodium_crypto_aead_aes256gcm_is_available()) {
            self::markTestSkipped('libsodium offers AES-256-GCM only with AES-NI and PCLMULQDQ');
        }
        $report = (new WycheproofAeadSuite(self::VECTORS))->run(
            'aes_gcm_test.json',
            'sodium aes256gcm',
            static fn (int $key, int $nonce, int $tag): ?AeadAlgorithm => $key === 256 ? SodiumAead::withLengths('aes256gcm', intdiv($nonce, 8), intdiv($tag, 8)) : null,
        );
        self::assertSame(68, $report->passed);
        self::assertSame(['valid, but the API refuses its lengths: sodium-aes256gcm: expected a nonce of 12 bytes' => 37], $report->skipped);
    }

    public function testAGroupForAnotherKeySizeIsNotCounted(): void
    {
        $report = (new WycheproofAeadSuite(self::VECTORS))->run(
            'aes_gcm_test.json',
            'only 192',
            static fn (int $key, int $nonce, int $tag): ?AeadAlgorithm => $key === 192 ? new OpensslAead('aes-192-gcm', intdiv($nonce, 8), intdiv($tag, 8)) : null,
        );
        self::assertSame(103, $report->passed + $report->skippedCount());
    }

    public function testAnImplementationThatIgnoresAuthenticationFailuresFails(): void
    {
        $this->expectException(VerificationFailed::class);
        $this->expectExceptionMessageMatches('/^aes_gcm_test\.json tcId \d+: expected rejection, got a decrypted plaintext$/');
        (new WycheproofAeadSuite(self::VECTORS))->run(
            'aes_gcm_test.json',
            'forgiving',
            static fn (int $key, int $nonce, int $tag): AeadAlgorithm => TamperedDecryption::ignoringAuthenticationFailure(new OpensslAead("aes-$key-gcm", intdiv($nonce, 8), intdiv($tag, 8))),
        );
    }

    public function testAVectorWhoseCiphertextWasAlteredIsReportedWithItsTcId(): void
    {
        $directory = sys_get_temp_dir() . '/pcb-vectors-' . bin2hex(random_bytes(4));
        mkdir($directory);
        $data = json_decode((string) file_get_contents(self::VECTORS . '/aes_gcm_test.json'), true);
        $data['testGroups'] = [$data['testGroups'][0]];
        $data['testGroups'][0]['tests'] = [$data['testGroups'][0]['tests'][0]];
        $data['testGroups'][0]['tests'][0]['result'] = 'valid';
        $data['testGroups'][0]['tests'][0]['msg'] = '00' . $data['testGroups'][0]['tests'][0]['msg'];
        file_put_contents($directory . '/altered.json', json_encode($data));
        try {
            $this->expectException(VerificationFailed::class);
            $this->expectExceptionMessageMatches('/^altered\.json tcId 1: expected the plaintext 00/');
            (new WycheproofAeadSuite($directory))->run(
                'altered.json',
                'altered',
                static fn (int $key, int $nonce, int $tag): AeadAlgorithm => new OpensslAead("aes-$key-gcm", intdiv($nonce, 8), intdiv($tag, 8)),
            );
        } finally {
            unlink($directory . '/altered.json');
            rmdir($directory);
        }
    }
}
