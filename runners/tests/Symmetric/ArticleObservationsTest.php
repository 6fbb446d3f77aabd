<?php

declare(strict_types=1);

namespace PhpCryptoBench\Tests\Symmetric;

use PhpCryptoBench\Symmetric\ArticleObservations;
use PHPUnit\Framework\TestCase;
use PHPUnit\Framework\Attributes\RequiresPhpExtension;
use PHPUnit\Framework\Attributes\IgnoreDeprecations;

// mcrypt emits E_DEPRECATED on every call, and these tests call it on purpose (PHPUnit 10+ reports them).
#[IgnoreDeprecations]
final class ArticleObservationsTest extends TestCase
{
    public function testOpensslEncryptsStreamModesWithoutPaddingAndPadsCbc(): void
    {
        // Seed 000: "OpenSSL does not support AES using any streaming block mode" and they need padding.
        self::assertSame(['aes-256-cfb', 'aes-256-cfb8', 'aes-256-cfb1', 'aes-256-ofb', 'aes-256-ctr'], ArticleObservations::unpaddedModes());
    }

    public function testOpensslSizesNeitherKeyNorIvItself(): void
    {
        $observed = ArticleObservations::observe();
        self::assertTrue($observed['openssl_pads_short_key']);
        self::assertTrue($observed['openssl_truncates_long_key']);
        self::assertTrue($observed['openssl_pads_short_iv']);
        self::assertTrue($observed['openssl_base64_without_raw_data']);
    }

    public function testTheArticlesPracticesShowWhatTheyLeak(): void
    {
        self::assertTrue(ArticleObservations::ecbRepeatsBlocks());
        self::assertTrue(ArticleObservations::cfbBitFlipUndetected());
        self::assertTrue(ArticleObservations::passwordIvRepeats());
    }

    public function testTheCfb1CiphersDecryptTheStarAppendedBase64OfSeed001(): void
    {
        $listed = array_values(array_intersect(['des-cfb1', 'des-ede3-cfb1'], openssl_get_cipher_methods()));
        // With the legacy provider (the symmetric child) both are listed; without it, none.
        self::assertSame($listed, ArticleObservations::starAppendedDecrypts());
    }

    public function testWithoutMcryptNoMcryptEntryIsRecorded(): void
    {
        $mcrypt = array_filter(array_keys(ArticleObservations::observe()), static fn (string $key): bool => str_starts_with($key, 'mcrypt_'));
        self::assertSame(extension_loaded('mcrypt') ? 6 : 0, count($mcrypt));
    }

    /** @requires extension mcrypt */
    #[RequiresPhpExtension('mcrypt')]
    public function testMcryptPadsWithZerosAndIsStrictAboutLengths(): void
    {
        $observed = ArticleObservations::observe();
        self::assertTrue($observed['mcrypt_zero_pads']);
        self::assertTrue($observed['mcrypt_zero_padding_ambiguous']);
        self::assertTrue($observed['mcrypt_refuses_wrong_key_length']);
        self::assertTrue($observed['mcrypt_refuses_wrong_iv_length']);
    }

    /** @requires extension mcrypt */
    #[RequiresPhpExtension('mcrypt')]
    public function testRijndael256IsNotAes256(): void
    {
        self::assertSame(32, ArticleObservations::observe()['mcrypt_rijndael_256_block_bytes']);
        self::assertFalse(ArticleObservations::rijndael256EqualsAes256());
        // The comparison can say yes: rijndael-128 with a 32-byte key is AES-256.
        $key = random_bytes(32);
        $block = random_bytes(16);
        self::assertSame(openssl_encrypt($block, 'aes-256-ecb', $key, OPENSSL_RAW_DATA | OPENSSL_ZERO_PADDING), mcrypt_encrypt('rijndael-128', $key, $block, 'ecb', ''));
    }
}
