<?php

declare(strict_types=1);

namespace PhpCryptoBench\Tests\Symmetric;

use PhpCryptoBench\Symmetric\InventoryEntry;
use PhpCryptoBench\Symmetric\InventoryProbe;
use PhpCryptoBench\Symmetric\SymmetricExperiment;
use PHPUnit\Framework\TestCase;
use PHPUnit\Framework\Attributes\DataProvider;

/** What each cipher name does through PHP today; its security verdict is the build's (tests/test_symmetric_analysis.py). */
final class InventoryProbeTest extends TestCase
{
    /** @return iterable<string, array{string, string}> */
    public static function classifications(): iterable
    {
        yield 'CBC round-trips' => ['aes-128-cbc', InventoryEntry::OK];
        yield 'CFB1 round-trips today' => ['aes-128-cfb1', InventoryEntry::OK];
        yield 'des-ede3-cfb1, "broken" in 2013' => ['des-ede3-cfb1', InventoryEntry::OK];
        yield 'GCM needs its tag' => ['aes-256-gcm', InventoryEntry::AEAD_NEEDS_TAG];
        yield 'ChaCha20-Poly1305 needs its tag' => ['chacha20-poly1305', InventoryEntry::AEAD_NEEDS_TAG];
        yield 'key wrap needs whole semiblocks' => ['aes-128-wrap', InventoryEntry::NEEDS_SPECIAL_INPUT];
        yield 'ECB round-trips (the build never recommends it)' => ['aes-128-ecb', InventoryEntry::OK];
        yield 'the null cipher is listed but not usable' => ['null', InventoryEntry::UNSUPPORTED];
    }

    /** @dataProvider classifications */
    #[DataProvider('classifications')]
    public function testEachNameGetsAStatusFromARealRoundTrip(string $cipher, string $status): void
    {
        $entry = (new InventoryProbe())->classify($cipher, 'default');
        self::assertSame($status, $entry->status, $entry->detail);
        self::assertSame(['cipher', 'provider', 'status', 'detail'], array_keys($entry->toRow()), 'facts only: the verdict is the build\'s');
        self::assertSame(in_array($status, [InventoryEntry::OK, InventoryEntry::NEEDS_SPECIAL_INPUT], true), $entry->measurable());
    }

    /**
     * Every name PHP lists gets a status from a real round trip; the tests that limit the inventory
     * (PHPCB_TEST_CIPHERS) rely on this one for the rest.
     */
    public function testEveryCipherPhpListsIsClassified(): void
    {
        $statuses = [InventoryEntry::OK, InventoryEntry::AEAD_NEEDS_TAG, InventoryEntry::NEEDS_SPECIAL_INPUT, InventoryEntry::UNSUPPORTED, InventoryEntry::ROUNDTRIP_FAILED];
        $probe = new InventoryProbe();
        $measurable = 0;
        foreach (openssl_get_cipher_methods() as $cipher) {
            $entry = $probe->classify($cipher, 'default');
            self::assertContains($entry->status, $statuses, $cipher);
            self::assertNotSame(InventoryEntry::ROUNDTRIP_FAILED, $entry->status, "$cipher: {$entry->detail}");
            $measurable += $entry->measurable() ? 1 : 0;
        }
        self::assertGreaterThan(40, $measurable, 'the default provider alone offers dozens of measurable ciphers');
    }

    public function testATestsCipherListLimitsTheInventoryToTheNamesItOffers(): void
    {
        $offered = ['aes-128-cbc', 'aes-128-cfb1', 'bf-cbc', 'rc4'];
        self::assertSame($offered, SymmetricExperiment::inventoryNames($offered, false), 'no list: every offered name');
        self::assertSame($offered, SymmetricExperiment::inventoryNames($offered, ' '), 'an empty list is no list');
        self::assertSame(['aes-128-cbc', 'bf-cbc'], SymmetricExperiment::inventoryNames($offered, 'bf-cbc, aes-128-cbc,sm4-cbc'), 'in PHP\'s order; a name PHP does not offer is not invented');
    }
}
