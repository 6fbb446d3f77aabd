<?php

declare(strict_types=1);

namespace PhpCryptoBench\Tests\Aead;

use PhpCryptoBench\Aead\BulkAead;
use PhpCryptoBench\Aead\DecryptCase;
use PhpCryptoBench\Aead\EncryptCase;
use PhpCryptoBench\Aead\OpensslAead;
use PhpCryptoBench\Aead\SodiumAead;
use PhpCryptoBench\Exception\VerificationFailed;
use PhpCryptoBench\Tests\Support\TamperedDecryption;
use PHPUnit\Framework\TestCase;
use PHPUnit\Framework\Attributes\DataProvider;

final class AeadCaseTest extends TestCase
{
    public function testKeyColumnsAreTheSchemaKeyInOrder(): void
    {
        $tables = json_decode((string) file_get_contents(REPOSITORY . '/data/schema/tables/aead.json'), true);
        $caseKey = array_values(array_diff($tables['resources'][0]['schema']['primaryKey'], ['sample']));
        $case = new EncryptCase(new OpensslAead('aes-128-ccm', 12, 8), 1024, 64);
        self::assertSame($caseKey, array_keys($case->key()));
        self::assertSame(
            ['library' => 'openssl', 'algorithm' => 'aes-128-ccm', 'operation' => 'encrypt', 'payload_bytes' => 1024, 'aad_bytes' => 64, 'tag_bytes' => 8, 'nonce_bytes' => 12],
            $case->key(),
        );
        self::assertSame('aes-128-ccm/8B-tag encrypt 1024 B (aad 64 B)', $case->label());
        self::assertSame(1024, $case->bytesPerIteration());
    }

    public function testEncryptAndDecryptCasesVerifyTheirLastOutput(): void
    {
        foreach ([new EncryptCase(new OpensslAead('aes-256-gcm'), 16, 0), new DecryptCase(new OpensslAead('aes-256-gcm'), 16, 0)] as $case) {
            $case->run(5);
            $case->verifyLastRun();
        }
        $this->expectNotToPerformAssertions();
    }

    /** @return iterable<string, array{BulkAead}> */
    public static function bulkAeads(): iterable
    {
        yield 'openssl gcm' => [new OpensslAead('aes-256-gcm')];
        yield 'openssl ccm, 8-byte tag' => [new OpensslAead('aes-128-ccm', 12, 8)];
        yield 'sodium xchacha20-poly1305' => [new SodiumAead('xchacha20poly1305-ietf')];
    }

    /** @dataProvider bulkAeads */
    #[DataProvider('bulkAeads')]
    public function testATimedRunIsTheLibraryCallInALoopWithAFreshNoncePerMessage(BulkAead $aead): void
    {
        $key = random_bytes($aead->keyBytes());
        $prefix = random_bytes($aead->nonceBytes() - 8);
        $last = $aead->encryptMany('message', $key, $prefix, 41, 3, 'aad');
        $nonce = $prefix . pack('J', 43);
        self::assertEquals($aead->encrypt('message', $key, $nonce, 'aad'), $last, 'the last of three messages, under counter 41 + 2');
        self::assertSame('message', $aead->decryptMany($last, $key, $nonce, 'aad', 4));
        self::assertNull($aead->decryptMany($last, $key, $nonce, 'other aad', 4), 'a failed opening is not a plaintext');
    }

    public function testAnUnverifiedEncryptCaseFailsVerification(): void
    {
        $this->expectException(VerificationFailed::class);
        $this->expectExceptionMessage('aes-256-gcm/16B-tag encrypt 16 B (aad 0 B): round trip expected the 16-byte plaintext back, got 0 bytes that differ');
        (new EncryptCase(new OpensslAead('aes-256-gcm'), 16, 0))->verifyLastRun();
    }

    /** @return iterable<string, array{class-string}> */
    public static function caseKinds(): iterable
    {
        yield 'encrypt' => [EncryptCase::class];
        yield 'decrypt' => [DecryptCase::class];
    }

    /**
     * @dataProvider caseKinds
     * @param class-string<EncryptCase|DecryptCase> $kind
     */
    #[DataProvider('caseKinds')]
    public function testAWrongPlaintextAfterTheTimedRunFailsVerification(string $kind): void
    {
        $case = new $kind(TamperedDecryption::corruptingPlaintext(new OpensslAead('aes-128-gcm')), 32, 0);
        $case->run(2);
        $this->expectException(VerificationFailed::class);
        $this->expectExceptionMessage('round trip expected the 32-byte plaintext back, got 32 bytes that differ');
        $case->verifyLastRun();
    }
}
