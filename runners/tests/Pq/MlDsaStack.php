<?php

declare(strict_types=1);

namespace PhpCryptoBench\Tests\Pq;

use PhpCryptoBench\Experiment\ExperimentSetup;
use PhpCryptoBench\Pq\PqExperiment;
use PHPUnit\Framework\Assert;

/**
 * Whether this PHP and its `openssl` command have ML-DSA (OpenSSL 3.5+: Debian 13's stack, `make test-php
 * STACK=debian13`). The host's PHP 8.2 with OpenSSL 3.0 has not: there the tests check what the
 * experiment says instead (failOnSkipped: nothing is skipped unseen).
 */
final class MlDsaStack
{
    private static ?string $reason = null;
    private static bool $probed = false;

    /** Why not, or null where ML-DSA works. */
    public static function missing(): ?string
    {
        if (!self::$probed) {
            self::$probed = true;
            self::$reason = PqExperiment::create(ExperimentSetup::forRepository(REPOSITORY))->unavailableReason();
        }
        return self::$reason;
    }

    /** Whether ML-DSA works here; where it does not, asserts that the experiment says why (OpenSSL before 3.5). */
    public static function present(): bool
    {
        $missing = self::missing();
        if ($missing !== null) {
            Assert::assertStringStartsWith('ML-DSA needs OpenSSL 3.5 or later', $missing, 'no ML-DSA here: the experiment says why');
        }
        return $missing === null;
    }
}
