<?php

declare(strict_types=1);

namespace PhpCryptoBench\Jws;

use OpenSSLAsymmetricKey;
use PhpCryptoBench\Exception\SignatureRejected;
use PhpCryptoBench\Exception\WeakKey;

/**
 * RS256/384/512 (RSASSA-PKCS1-v1_5) and PS256/384/512 (RSASSA-PSS, MGF1 with the same hash and a
 * salt as long as the hash, RFC 7518 section 3.5). PHP's openssl_sign() has no PSS option, so PSS
 * is encoded here (RFC 8017 section 9.1) and only the raw RSA operation is OpenSSL's.
 */
final class Rsa implements Algorithm
{
    public const MINIMUM_BITS = 2048;

    private function __construct(
        private readonly string $name,
        private readonly string $hash,
        private readonly bool $pss,
    ) {
    }

    public static function named(string $name): self
    {
        $hash = 'sha' . substr($name, 2);
        return new self($name, $hash, str_starts_with($name, 'PS'));
    }

    public function name(): string
    {
        return $this->name;
    }

    public function checkKey(mixed $key, bool $forSigning): void
    {
        $details = OpensslKeys::details($this->name, $key, OPENSSL_KEYTYPE_RSA, 'an RSA key');
        if ($details['bits'] < self::MINIMUM_BITS) {
            throw WeakKey::rsaTooShort($this->name, (int) $details['bits']);
        }
        if ($forSigning && !OpensslKeys::isPrivate($details)) {
            throw WeakKey::wrongType($this->name, 'a private key to sign with', 'a public key');
        }
    }

    public function sign(mixed $key, string $input): string
    {
        $signature = '';
        $ok = $key instanceof OpenSSLAsymmetricKey && ($this->pss
            ? openssl_private_encrypt($this->pssEncode($input, self::modulusBits($key)), $signature, $key, OPENSSL_NO_PADDING)
            : openssl_sign($input, $signature, $key, $this->hash));
        if (!$ok) {
            throw SignatureRejected::signingFailed($this->name, (string) openssl_error_string());
        }
        return $signature;
    }

    public function verify(mixed $key, string $input, string $signature): bool
    {
        if (!$key instanceof OpenSSLAsymmetricKey) {
            return false;
        }
        $bits = self::modulusBits($key);
        $bytes = intdiv($bits + 7, 8);
        if (strlen($signature) !== $bytes) {
            throw SignatureRejected::length($this->name, $bytes, strlen($signature));
        }
        if (!$this->pss) {
            $valid = openssl_verify($input, $signature, $key, $this->hash) === 1;
            self::clearErrors();
            return $valid;
        }
        $encoded = '';
        if (!openssl_public_decrypt($signature, $encoded, $key, OPENSSL_NO_PADDING)) {
            self::clearErrors();
            return false;
        }
        return $this->pssVerify($input, $encoded, $bits);
    }

    private static function modulusBits(OpenSSLAsymmetricKey $key): int
    {
        $details = openssl_pkey_get_details($key);
        return $details === false ? 0 : (int) $details['bits'];
    }

    private function hashBytes(): int
    {
        return strlen(hash($this->hash, '', true));
    }

    /** EMSA-PSS-ENCODE (RFC 8017 section 9.1.1), padded to the modulus length for the raw RSA operation. */
    private function pssEncode(string $message, int $modulusBits): string
    {
        $hLen = $this->hashBytes();
        $emBits = $modulusBits - 1;
        $emLen = intdiv($emBits + 7, 8);
        $salt = random_bytes($hLen);
        $h = hash($this->hash, str_repeat("\0", 8) . hash($this->hash, $message, true) . $salt, true);
        $db = str_repeat("\0", $emLen - 2 * $hLen - 2) . "\x01" . $salt;
        $maskedDb = $db ^ $this->mgf1($h, $emLen - $hLen - 1);
        $maskedDb[0] = chr(ord($maskedDb[0]) & (0xff >> (8 * $emLen - $emBits)));
        return str_pad($maskedDb . $h . "\xbc", intdiv($modulusBits + 7, 8), "\0", STR_PAD_LEFT);
    }

    /** EMSA-PSS-VERIFY (RFC 8017 section 9.1.2) with sLen = hLen. */
    private function pssVerify(string $message, string $decrypted, int $modulusBits): bool
    {
        $hLen = $this->hashBytes();
        $emBits = $modulusBits - 1;
        $emLen = intdiv($emBits + 7, 8);
        if (strlen($decrypted) > $emLen) {
            if (ltrim(substr($decrypted, 0, strlen($decrypted) - $emLen), "\0") !== '') {
                return false;
            }
            $decrypted = substr($decrypted, -$emLen);
        }
        if ($emLen < 2 * $hLen + 2 || strlen($decrypted) !== $emLen || $decrypted[$emLen - 1] !== "\xbc") {
            return false;
        }
        $maskedDb = substr($decrypted, 0, $emLen - $hLen - 1);
        $h = substr($decrypted, $emLen - $hLen - 1, $hLen);
        $topBits = 0xff << (8 - (8 * $emLen - $emBits)) & 0xff;
        if ((ord($maskedDb[0]) & $topBits) !== 0) {
            return false;
        }
        $db = $maskedDb ^ $this->mgf1($h, $emLen - $hLen - 1);
        $db[0] = chr(ord($db[0]) & (0xff >> (8 * $emLen - $emBits)));
        $separator = $emLen - 2 * $hLen - 2;
        if (ltrim(substr($db, 0, $separator), "\0") !== '' || $db[$separator] !== "\x01") {
            return false;
        }
        $salt = substr($db, $separator + 1);
        return hash_equals($h, hash($this->hash, str_repeat("\0", 8) . hash($this->hash, $message, true) . $salt, true));
    }

    private function mgf1(string $seed, int $length): string
    {
        $mask = '';
        for ($counter = 0; strlen($mask) < $length; $counter++) {
            $mask .= hash($this->hash, $seed . pack('N', $counter), true);
        }
        return substr($mask, 0, $length);
    }

    private static function clearErrors(): void
    {
        while (openssl_error_string() !== false) {
            // Leave no stale error for the next call to report.
        }
    }
}
