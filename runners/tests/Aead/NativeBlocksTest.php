<?php

declare(strict_types=1);

namespace PhpCryptoBench\Tests\Aead;

use PhpCryptoBench\Aead\AeadExperiment;
use PhpCryptoBench\Harness\Profile;
use PHPUnit\Framework\TestCase;

/** The blocks each profile sets PHP's AEAD encryption beside `openssl speed` at. */
final class NativeBlocksTest extends TestCase
{
    public function testTheQuickProfileTakesOnly16KiBWhatThePerCallModelAndTheFidelityGoalRead(): void
    {
        self::assertSame([16384], AeadExperiment::nativeBlocks(Profile::named('quick')));
    }

    public function testTheFullProfileAlsoTakes1KiB(): void
    {
        self::assertSame([1024, 16384], AeadExperiment::nativeBlocks(Profile::named('full')));
    }
}
