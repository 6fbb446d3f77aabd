<?php

declare(strict_types=1);

namespace PhpCryptoBench\Tests\Environment;

use PhpCryptoBench\Environment\MissingExtension;
use PHPUnit\Framework\TestCase;

/** An experiment that cannot run says which extension it lacks: the first missing, in the order it needs them. */
final class MissingExtensionTest extends TestCase
{
    public function testNothingIsMissingWhenEveryExtensionIsLoaded(): void
    {
        self::assertNull(MissingExtension::among(['openssl', 'sodium'], static fn (string $name): bool => true));
    }

    public function testTheFirstMissingExtensionIsNamed(): void
    {
        $loaded = static fn (string $name): bool => $name === 'sodium';
        self::assertSame('openssl extension not loaded', MissingExtension::among(['openssl', 'sodium'], $loaded));
    }

    public function testSodiumsReasonSaysWherePhpShipsIt(): void
    {
        $loaded = static fn (string $name): bool => $name === 'openssl';
        self::assertSame('sodium extension not loaded (built into PHP 7.2+)', MissingExtension::among(['openssl', 'sodium'], $loaded));
    }

    public function testThisPhpHasWhatTheExperimentsNeed(): void
    {
        self::assertNull(MissingExtension::among(['openssl', 'sodium']));
    }
}
