<?php

declare(strict_types=1);

namespace PhpCryptoBench\Tests\Symmetric;

use PHPUnit\Framework\TestCase;

/**
 * PHP >= 7.2 without the PECL extension: a PHP started with -n (no php.ini, so no shared
 * extensions). The mcrypt cases are reported missing with the reason, and the
 * OpenSSL half still verifies and is measured.
 */
final class WithoutMcryptTest extends TestCase
{
    public function testTheOpensslHalfStillRunsAndTheGapSaysWhatToInstall(): void
    {
        $script = <<<'PHP'
            require $argv[1] . '/runners/bootstrap.php';
            $experiment = PhpCryptoBench\Symmetric\SymmetricExperiment::create(PhpCryptoBench\Experiment\ExperimentSetup::forRepository($argv[1]));
            $verification = $experiment->verify();
            echo json_encode([
                'mcrypt_loaded' => extension_loaded('mcrypt'),
                'unavailable' => $experiment->unavailableReason(),
                'gaps' => $experiment->gaps(),
                'vectors' => array_column($verification['vectors'], 'algorithm'),
                'cases' => $experiment->caseCount(PhpCryptoBench\Harness\Profile::named('quick')),
                'inventory' => PhpCryptoBench\Symmetric\SymmetricExperiment::inventoryEstimate(),
            ]);
            PHP;
        $command = [PHP_BINARY, '-n', '-r', $script, REPOSITORY];
        $process = proc_open($command, [1 => ['pipe', 'w'], 2 => ['pipe', 'w']], $pipes);
        $output = (string) stream_get_contents($pipes[1]);
        $errors = (string) stream_get_contents($pipes[2]);
        fclose($pipes[1]);
        fclose($pipes[2]);
        self::assertSame(0, proc_close($process), $errors);
        $result = json_decode($output, true, 8, JSON_THROW_ON_ERROR);

        self::assertFalse($result['mcrypt_loaded']);
        self::assertNull($result['unavailable']);
        self::assertContains('mcrypt extension not loaded: mcrypt left PHP in 7.2; install the PECL extension (Debian: php8.2-mcrypt) to measure it', $result['gaps']);
        self::assertSame(['openssl aes-*-cbc'], $result['vectors']);
        self::assertSame(3 * 5 * 2 + $result['inventory'], $result['cases'], 'AES-CBC through OpenSSL only; no Blowfish without mcrypt or the legacy provider; and the inventory');
    }
}
