<?php

declare(strict_types=1);

namespace PhpCryptoBench\Tests\Symmetric;

use PhpCryptoBench\Symmetric\InventoryEntry;
use PhpCryptoBench\Symmetric\InventoryProbe;
use PhpCryptoBench\Symmetric\SecurityPolicy;
use PHPUnit\Framework\TestCase;

/** @requires extension yaml */
final class InventoryAndPolicyTest extends TestCase
{
    private static function policy(): SecurityPolicy
    {
        return SecurityPolicy::load(REPOSITORY . '/data/policy/symmetric.yaml');
    }

    /** @return iterable<string, array{string, string, string}> */
    public static function classifications(): iterable
    {
        yield 'CBC round-trips' => ['aes-128-cbc', InventoryEntry::OK, 'acceptable'];
        yield 'CFB1 round-trips today' => ['aes-128-cfb1', InventoryEntry::OK, 'acceptable'];
        yield 'des-ede3-cfb1, "broken" in 2013' => ['des-ede3-cfb1', InventoryEntry::OK, 'not_recommended'];
        yield 'GCM needs its tag' => ['aes-256-gcm', InventoryEntry::AEAD_NEEDS_TAG, 'recommended'];
        yield 'ChaCha20-Poly1305 needs its tag' => ['chacha20-poly1305', InventoryEntry::AEAD_NEEDS_TAG, 'recommended'];
        yield 'key wrap needs whole semiblocks' => ['aes-128-wrap', InventoryEntry::NEEDS_SPECIAL_INPUT, 'not_recommended'];
        yield 'ECB is never recommended' => ['aes-128-ecb', InventoryEntry::OK, 'not_recommended'];
        yield 'the null cipher is listed but not usable' => ['null', InventoryEntry::UNSUPPORTED, 'not_recommended'];
    }

    /** @dataProvider classifications */
    public function testEachNameGetsAStatusFromARealRoundTrip(string $cipher, string $status, string $security): void
    {
        $entry = (new InventoryProbe(self::policy()))->classify($cipher, 'default');
        self::assertSame($status, $entry->status, $entry->detail);
        self::assertSame($security, $entry->security);
        self::assertSame(in_array($status, [InventoryEntry::OK, InventoryEntry::NEEDS_SPECIAL_INPUT], true), $entry->measurable());
    }

    /** @return iterable<string, array{string}> */
    public static function neverRecommended(): iterable
    {
        foreach (['rc4', 'rc4-40', 'des-cbc', 'des-ede3-cbc', 'bf-cbc', 'bf-cfb', 'cast5-cbc', 'idea-cbc', 'rc2-cbc', 'seed-cbc', 'aes-256-ecb', 'desx-cbc', 'null', 'aes-128-cbc-hmac-sha1', 'unknown-cipher'] as $name) {
            yield $name => [$name];
        }
    }

    /** @dataProvider neverRecommended */
    public function testInsecureCiphersAreNotRecommended(string $cipher): void
    {
        self::assertSame('not_recommended', self::policy()->verdict($cipher)['status']);
    }

    public function testMcryptItselfIsNotRecommended(): void
    {
        self::assertSame('not_recommended', self::policy()->engineVerdict('mcrypt')['status'] ?? null);
    }
}
