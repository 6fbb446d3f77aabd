<?php

declare(strict_types=1);

namespace PhpCryptoBench\EcKeygen;

use OpenSSLAsymmetricKey;
use PhpCryptoBench\Exception\KeyOperationFailed;

/**
 * The field size of an EC key, read from the key itself: PHP's openssl_pkey_get_details() gives
 * only the order's bit length, so the key's public half is handed to `openssl ec -param_enc
 * explicit`, which prints the field's prime (or, for binary curves, its reduction polynomial).
 */
final class ExplicitParameters
{
    public function __construct(private readonly string $opensslBinary = 'openssl')
    {
    }

    /** @throws KeyOperationFailed */
    public function fieldBits(string $curve, OpenSSLAsymmetricKey $key): int
    {
        $details = openssl_pkey_get_details($key);
        if ($details === false) {
            throw KeyOperationFailed::of($curve, 'openssl_pkey_get_details', (string) openssl_error_string());
        }
        $text = $this->describe($curve, (string) $details['key']);
        return self::parseFieldBits($curve, $text);
    }

    private function describe(string $curve, string $publicPem): string
    {
        $command = [$this->opensslBinary, 'ec', '-pubin', '-param_enc', 'explicit', '-text', '-noout'];
        $process = @proc_open($command, [0 => ['pipe', 'r'], 1 => ['pipe', 'w'], 2 => ['pipe', 'w']], $pipes);
        if (!is_resource($process)) {
            throw KeyOperationFailed::unreadableParameters($curve, 'could not start ' . $this->opensslBinary);
        }
        // A command that cannot be executed exits before reading: the write then fails with EPIPE,
        // and its exit status below says why.
        $written = @fwrite($pipes[0], $publicPem);
        fclose($pipes[0]);
        $text = (string) stream_get_contents($pipes[1]);
        $error = (string) stream_get_contents($pipes[2]);
        fclose($pipes[1]);
        fclose($pipes[2]);
        $status = proc_close($process);
        if ($status !== 0) {
            throw KeyOperationFailed::unreadableParameters($curve, sprintf('exit status %d: %s', $status, trim($error)));
        }
        if ($written !== strlen($publicPem)) {
            throw KeyOperationFailed::unreadableParameters($curve, 'could not write the public key to ' . $this->opensslBinary);
        }
        return $text;
    }

    /**
     * A prime field GF(p) has as many bits as p; a binary field GF(2^m) has degree m, one less than
     * the bit length of its reduction polynomial.
     *
     * @throws KeyOperationFailed
     */
    public static function parseFieldBits(string $curve, string $text): int
    {
        foreach (['Prime:' => 0, 'Polynomial:' => 1] as $label => $lessBits) {
            if (preg_match('/^' . preg_quote($label, '/') . '\s*\n((?:[ \t]+[0-9a-f:]+\n?)+)/mi', $text, $match) === 1) {
                return self::bitLength($match[1]) - $lessBits;
            }
        }
        throw KeyOperationFailed::unreadableParameters($curve, 'no "Prime:" or "Polynomial:" block in its output');
    }

    private static function bitLength(string $hexBlock): int
    {
        $hex = ltrim((string) preg_replace('/[^0-9a-f]/i', '', $hexBlock), '0');
        if ($hex === '') {
            return 0;
        }
        return (strlen($hex) - 1) * 4 + strlen(decbin((int) hexdec($hex[0])));
    }
}
