<?php

declare(strict_types=1);

namespace PhpCryptoBench\Tests\Aead;

use PhpCryptoBench\Aead\Sealed;
use PhpCryptoBench\Aead\SodiumAead;
use PhpCryptoBench\Exception\InvalidAeadParameter;
use PHPUnit\Framework\TestCase;

final class SodiumAeadTest extends TestCase
{
    public function testXChaChaUsesA24ByteNonceAndRoundTrips(): void
    {
        $aead = new SodiumAead('xchacha20poly1305-ietf');
        self::assertSame(24, $aead->nonceBytes());
        $key = random_bytes(32);
        $nonce = random_bytes(24);
        $sealed = $aead->encrypt('hello', $key, $nonce, 'ad');
        self::assertSame(5, strlen($sealed->ciphertext()));
        self::assertSame('hello', $aead->decrypt($sealed, $key, $nonce, 'ad'));
        self::assertNull($aead->decrypt($sealed, $key, $nonce, 'other ad'));
    }

    public function testATruncatedTagIsRejected(): void
    {
        $aead = new SodiumAead('chacha20poly1305-ietf');
        $key = random_bytes(32);
        $nonce = random_bytes(12);
        $sealed = $aead->encrypt('hello', $key, $nonce, '');
        self::assertNull($aead->decrypt(Sealed::separate($sealed->ciphertext(), substr($sealed->tag(), 0, 12)), $key, $nonce, ''));
    }

    public function testWithLengthsRefusesAnotherNonceLength(): void
    {
        $this->expectException(InvalidAeadParameter::class);
        $this->expectExceptionMessage('sodium-chacha20poly1305-ietf: expected a nonce of 12 bytes, got 8');
        SodiumAead::withLengths('chacha20poly1305-ietf', 8, 16);
    }

    public function testUnknownConstructionIsRefused(): void
    {
        $this->expectExceptionMessage('sodium-rot13 is not available: unknown libsodium construction');
        new SodiumAead('rot13');
    }
}
