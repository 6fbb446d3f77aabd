<?php

declare(strict_types=1);

namespace PhpCryptoBench\Tests\Symmetric;

use PhpCryptoBench\Symmetric\SymmetricExperiment;
use PHPUnit\Framework\TestCase;

/** The payloads the cipher inventory round-trips each cipher at (issue 48: the quick profile's least work). */
final class InventoryPayloadsTest extends TestCase
{
    public function testTheQuickProfileRoundTripsTheBitSerialCiphersAtAnEighthOfTheRace(): void
    {
        foreach (['aes-128-cfb1', 'aes-256-cfb1', 'des-ede3-cfb1', 'camellia-192-cfb1'] as $cipher) {
            self::assertSame([25600], SymmetricExperiment::inventoryPayloads('quick', $cipher), $cipher);
        }
        foreach (['aes-128-cfb', 'aes-128-cfb8', 'des-ede3-cbc', 'rc4', 'aes-128-wrap', 'chacha20'] as $cipher) {
            self::assertSame([204800], SymmetricExperiment::inventoryPayloads('quick', $cipher), "$cipher: not bit-serial, timed in the race's payload");
        }
    }

    public function testTheFullProfileRoundTripsEveryCipherAtTheRacesPayload(): void
    {
        foreach (openssl_get_cipher_methods() as $cipher) {
            self::assertSame(SymmetricExperiment::INVENTORY_PAYLOADS['full'], SymmetricExperiment::inventoryPayloads('full', $cipher), $cipher);
        }
    }

    /** The build checks each 256-bit cipher against its 128-bit twin at the same payload only. */
    public function testTwinKeySizesShareAPayloadInEveryProfile(): void
    {
        $offered = openssl_get_cipher_methods();
        foreach (['quick', 'full'] as $profile) {
            foreach ($offered as $cipher) {
                $twin = str_replace('-256-', '-128-', $cipher);
                if ($twin !== $cipher && in_array($twin, $offered, true)) {
                    self::assertSame(SymmetricExperiment::inventoryPayloads($profile, $twin), SymmetricExperiment::inventoryPayloads($profile, $cipher), "$profile: $cipher and $twin");
                }
            }
        }
    }

    public function testEveryCipherHasAsManyPayloadsAsTheCaseCountExpects(): void
    {
        foreach (['quick', 'full'] as $profile) {
            foreach (openssl_get_cipher_methods() as $cipher) {
                self::assertCount(count(SymmetricExperiment::INVENTORY_PAYLOADS[$profile]), SymmetricExperiment::inventoryPayloads($profile, $cipher), "$profile: $cipher (caseCount counts the inventory's payloads)");
            }
        }
    }
}
