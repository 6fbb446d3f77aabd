<?php

declare(strict_types=1);

namespace PhpCryptoBench\Symmetric;

use PhpCryptoBench\Environment\PhpFeatures;
use PhpCryptoBench\Exception\CipherFailed;

/** Any cipher openssl_encrypt offers, raw bytes in and out; OpenSSL pads block modes with PKCS#7 itself. */
final class OpensslCipher implements SymmetricCipher
{
    /** Name suffixes of modes that take whole blocks, so OpenSSL pads them. */
    private const PADDED_MODES = ['cbc', 'ecb'];

    private readonly int $keyBytes;
    private readonly int $ivBytes;

    public function __construct(private readonly string $name, private readonly string $provider = 'default')
    {
        $keyBytes = PhpFeatures::cipherKeyLength($name);
        $ivBytes = @openssl_cipher_iv_length($name);
        if ($keyBytes === false || $keyBytes < 1 || $ivBytes === false) {
            // PHP 8.1 sizes keys from the name (PhpFeatures): a name it cannot size gives no warning.
            $reason = $ivBytes !== false && !PhpFeatures::hasCipherKeyLength() ? 'no key length known for this name on PHP 8.1' : null;
            throw CipherFailed::unknown($name, 'this OpenSSL through PHP (' . ($reason ?? error_get_last()['message'] ?? 'no key length') . ')');
        }
        $this->keyBytes = $keyBytes;
        $this->ivBytes = $ivBytes;
    }

    public function engine(): string
    {
        return 'openssl';
    }

    public function provider(): string
    {
        return $this->provider;
    }

    public function cipher(): string
    {
        return $this->name;
    }

    public function mode(): string
    {
        return self::modeOf($this->name);
    }

    /** The mode named at the end of an OpenSSL cipher name; "stream" for a stream cipher. */
    public static function modeOf(string $name): string
    {
        $parts = explode('-', $name);
        $last = end($parts);
        return match (true) {
            str_ends_with($name, '-cbc-cts') => 'cbc-cts',
            preg_match('/-hmac-sha\d+$/', $name) === 1 => 'cbc-hmac',
            str_contains($name, 'wrap') => 'wrap',
            in_array($last, ['cbc', 'ecb', 'cfb', 'cfb1', 'cfb8', 'ofb', 'ctr', 'xts', 'gcm', 'ccm', 'ocb', 'siv'], true) => $last,
            $name === 'chacha20-poly1305' => 'aead',
            str_starts_with($name, 'des-ede') && count($parts) === 2 => 'ecb',
            default => 'stream',
        };
    }

    public function keyBits(): int
    {
        return $this->keyBytes * 8;
    }

    public function keyBytes(): int
    {
        return $this->keyBytes;
    }

    public function padding(): string
    {
        return in_array($this->mode(), self::PADDED_MODES, true) ? 'pkcs7' : 'none';
    }

    public function ivBytes(): int
    {
        return $this->ivBytes;
    }

    public function encrypt(string $plaintext, string $key, string $iv): string
    {
        $ciphertext = openssl_encrypt($plaintext, $this->name, $key, OPENSSL_RAW_DATA, $iv);
        if ($ciphertext === false) {
            throw CipherFailed::encrypt($this->name, self::errors());
        }
        return $ciphertext;
    }

    public function decrypt(string $ciphertext, string $key, string $iv): string
    {
        $plaintext = openssl_decrypt($ciphertext, $this->name, $key, OPENSSL_RAW_DATA, $iv);
        if ($plaintext === false) {
            throw CipherFailed::decrypt($this->name, self::errors());
        }
        return $plaintext;
    }

    /** OpenSSL's error queue, emptied so the next call starts clean. */
    public static function errors(): string
    {
        $messages = [];
        while (($message = openssl_error_string()) !== false) {
            $messages[] = $message;
        }
        return implode('; ', $messages);
    }
}
