<?php

declare(strict_types=1);

namespace PhpCryptoBench\Tests\Aead;

use PhpCryptoBench\Aead\OpensslAead;
use PhpCryptoBench\Aead\Sealed;
use PhpCryptoBench\Exception\InvalidAeadParameter;
use PHPUnit\Framework\TestCase;
use PHPUnit\Framework\Attributes\DataProvider;

final class OpensslAeadTest extends TestCase
{
    /** @return iterable<string, array{string, int}> */
    public static function ciphers(): iterable
    {
        yield 'aes-128-gcm' => ['aes-128-gcm', 16];
        yield 'aes-256-gcm' => ['aes-256-gcm', 16];
        yield 'aes-256-ccm, 8-byte tag' => ['aes-256-ccm', 8];
        yield 'chacha20-poly1305' => ['chacha20-poly1305', 16];
    }

    /** @dataProvider ciphers */
    #[DataProvider('ciphers')]
    public function testRoundTripGivesThePlaintextBack(string $cipher, int $tagBytes): void
    {
        $aead = new OpensslAead($cipher, 12, $tagBytes);
        $key = random_bytes($aead->keyBytes());
        $nonce = random_bytes(12);
        $sealed = $aead->encrypt('attack at dawn', $key, $nonce, 'header');

        self::assertSame($tagBytes, strlen($sealed->tag()));
        self::assertNotSame('attack at dawn', $sealed->ciphertext());
        self::assertSame('attack at dawn', $aead->decrypt($sealed, $key, $nonce, 'header'));
    }

    public function testTruncatedGcmTagIsRejectedThoughRawPhpWouldAcceptIt(): void
    {
        $aead = new OpensslAead('aes-128-gcm');
        $key = random_bytes(16);
        $nonce = random_bytes(12);
        $sealed = $aead->encrypt('message', $key, $nonce, '');
        $truncated = Sealed::separate($sealed->ciphertext(), substr($sealed->tag(), 0, 4));

        $raw = openssl_decrypt($sealed->ciphertext(), 'aes-128-gcm', $key, OPENSSL_RAW_DATA, $nonce, substr($sealed->tag(), 0, 4));
        self::assertSame('message', $raw, 'PHP itself accepts a 4-byte prefix of the tag: the reason for the length check');
        self::assertNull($aead->decrypt($truncated, $key, $nonce, ''));
    }

    public function testWrongNonceLengthIsRefusedWithBothLengthsInTheMessage(): void
    {
        $aead = new OpensslAead('aes-256-gcm');
        $this->expectException(InvalidAeadParameter::class);
        $this->expectExceptionMessage('aes-256-gcm: expected a nonce of 12 bytes, got 8');
        $aead->encrypt('x', random_bytes(32), random_bytes(8), '');
    }

    public function testWrongKeyLengthIsRefused(): void
    {
        $this->expectExceptionMessage('aes-256-gcm: expected a key of 32 bytes, got 16');
        (new OpensslAead('aes-256-gcm'))->encrypt('x', random_bytes(16), random_bytes(12), '');
    }

    public function testCcmRefusesANonceOutsideSevenToThirteenBytes(): void
    {
        $this->expectExceptionMessage('aes-128-ccm: expected a nonce of 7..13 bytes, got 14');
        new OpensslAead('aes-128-ccm', 14);
    }

    public function testCcmRefusesAnOddTagLength(): void
    {
        $this->expectExceptionMessage('aes-128-ccm: expected a tag of 4|6|8|10|12|14|16 bytes, got 9');
        new OpensslAead('aes-128-ccm', 12, 9);
    }

    public function testNonAeadCipherIsRefused(): void
    {
        $this->expectExceptionMessage('aes-128-cbc is not available: not a GCM, CCM or ChaCha20-Poly1305 cipher');
        new OpensslAead('aes-128-cbc');
    }
}
