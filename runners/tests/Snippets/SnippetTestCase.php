<?php

declare(strict_types=1);

namespace PhpCryptoBench\Tests\Snippets;

use PHPUnit\Framework\TestCase;

/**
 * A test that executes one file of runners/snippets/ (the PHP the site shows, included into its pages
 * from the file). Its class is named after the file: aes-256-gcm.php is tested by Aes256GcmTest, and
 * EverySnippetIsTestedTest fails when a file has no such test.
 */
abstract class SnippetTestCase extends TestCase
{
    public const DIRECTORY = REPOSITORY . '/runners/snippets';

    /** The file under runners/snippets/ this class executes, e.g. aes-256-gcm.php. */
    abstract public static function snippet(): string;

    public static function setUpBeforeClass(): void
    {
        require_once self::DIRECTORY . '/' . static::snippet();
    }

    /** The test class that must exist for a snippet file: aes-256-gcm.php => Aes256GcmTest. */
    public static function classTesting(string $snippet): string
    {
        $words = explode('-', basename($snippet, '.php'));
        return __NAMESPACE__ . '\\' . implode('', array_map('ucfirst', $words)) . 'Test';
    }

    protected function tearDown(): void
    {
        // Refusals leave OpenSSL's reasons queued; later tests read the queue.
        while (openssl_error_string() !== false) {
        }
    }

    /** $bytes with bit 0 of the byte at $offset flipped. */
    protected static function flipped(string $bytes, int $offset): string
    {
        $bytes[$offset] = chr(ord($bytes[$offset]) ^ 1);
        return $bytes;
    }
}
