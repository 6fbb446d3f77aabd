<?php

declare(strict_types=1);

namespace PhpCryptoBench\Tests\Symmetric;

use PhpCryptoBench\Exception\CipherFailed;
use PhpCryptoBench\Exception\InvalidPadding;
use PhpCryptoBench\Exception\VerificationFailed;
use PhpCryptoBench\Symmetric\CrossEngineCheck;
use PhpCryptoBench\Symmetric\McryptCipher;
use PhpCryptoBench\Symmetric\OpensslCipher;
use PhpCryptoBench\Symmetric\WycheproofCbcSuite;
use PHPUnit\Framework\TestCase;
use PHPUnit\Framework\Attributes\RequiresPhpExtension;
use PHPUnit\Framework\Attributes\IgnoreDeprecations;

/** @requires extension mcrypt */
#[RequiresPhpExtension('mcrypt')]
// mcrypt emits E_DEPRECATED on every call, and these tests call it on purpose (PHPUnit 10+ reports them).
#[IgnoreDeprecations]
final class CiphersTest extends TestCase
{
    public function testMcryptWithExplicitPkcs7EqualsOpensslForEveryAesKeySize(): void
    {
        foreach ([128, 192, 256] as $bits) {
            self::assertSame(6, (new CrossEngineCheck())->run(new McryptCipher('rijndael-128', 'cbc', intdiv($bits, 8)), new OpensslCipher("aes-$bits-cbc")));
        }
    }

    public function testMcryptsOwnZeroPaddingWouldNotMatch(): void
    {
        // What the padding is for: left to itself mcrypt pads with zero bytes, and the ciphertexts differ.
        $key = random_bytes(16);
        $iv = random_bytes(16);
        $zeroPadded = mcrypt_encrypt('rijndael-128', $key, 'abc', 'cbc', $iv);
        self::assertNotSame((new OpensslCipher('aes-128-cbc'))->encrypt('abc', $key, $iv), $zeroPadded);
        self::assertSame('abc' . str_repeat("\0", 13), mcrypt_decrypt('rijndael-128', $key, $zeroPadded, 'cbc', $iv));
    }

    public function testWycheproofCbcVectorsPassThroughBothEngines(): void
    {
        $suite = new WycheproofCbcSuite(REPOSITORY . '/vectors/wycheproof');
        self::assertSame(216, $suite->run('openssl', static fn (int $bits) => new OpensslCipher("aes-$bits-cbc"))->passed);
        self::assertSame(216, $suite->run('mcrypt', static fn (int $bits) => new McryptCipher('rijndael-128', 'cbc', intdiv($bits, 8)))->passed);
    }

    public function testCiphersOfDifferentModesDisagreeAndTheCheckSaysSo(): void
    {
        $this->expectException(VerificationFailed::class);
        $this->expectExceptionMessageMatches('/^mcrypt rijndael-128-cbc vs openssl aes-128-ctr: expected equal ciphertexts for a 0-byte plaintext, got 16 and 0 bytes that differ$/');
        (new CrossEngineCheck())->run(new McryptCipher('rijndael-128', 'cbc', 16), new OpensslCipher('aes-128-ctr'));
    }

    public function testMcryptRejectsATamperedPadding(): void
    {
        $cipher = new McryptCipher('rijndael-128', 'cbc', 16);
        $key = random_bytes(16);
        $iv = random_bytes(16);
        $ciphertext = $cipher->encrypt('sixteen byte msg', $key, $iv);
        // The last block is all padding (0x10 × 16); in CBC, flipping the byte above it turns the
        // padding's last byte into 0x00, which no PKCS#7 padding ends with. A random key instead
        // would pass as padding 0x01 once in 256 runs.
        $ciphertext[15] = $ciphertext[15] ^ "\x10";
        $this->expectException(InvalidPadding::class);
        $cipher->decrypt($ciphertext, $key, $iv);
    }

    public function testModesAndPaddingAreReadFromTheName(): void
    {
        self::assertSame(['cbc', 'pkcs7'], [(new OpensslCipher('aes-128-cbc'))->mode(), (new OpensslCipher('aes-128-cbc'))->padding()]);
        self::assertSame(['cfb1', 'none'], [(new OpensslCipher('aes-128-cfb1'))->mode(), (new OpensslCipher('aes-128-cfb1'))->padding()]);
        self::assertSame('wrap', OpensslCipher::modeOf('aes-256-wrap-pad'));
        self::assertSame('stream', OpensslCipher::modeOf('chacha20'));
        self::assertSame('ecb', OpensslCipher::modeOf('des-ede3'));
        self::assertSame('aead', OpensslCipher::modeOf('chacha20-poly1305'));
    }

    public function testAnUnknownCipherIsRefusedWithPhpsReason(): void
    {
        $this->expectException(CipherFailed::class);
        $this->expectExceptionMessage('null: not offered by this OpenSSL through PHP');
        new OpensslCipher('null');
    }
}
