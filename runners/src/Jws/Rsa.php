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
        private readonly int $hashBytes,
    ) {
    }

    public static function named(string $name): self
    {
        $hash = 'sha' . substr($name, 2);
        return new self($name, $hash, str_starts_with($name, 'PS'), strlen(hash($hash, '', true)));
    }

    public function name(): string
    {
        return $this->name;
    }

    public function facts(mixed $material, bool $forSigning, KeyDetails $details): KeyFacts
    {
        $found = OpensslKeyDetails::require($details, $this->name, $material, OPENSSL_KEYTYPE_RSA, 'an RSA key');
        if ($found['bits'] < self::MINIMUM_BITS) {
            throw WeakKey::rsaTooShort($this->name, (int) $found['bits']);
        }
        $private = OpensslKeyDetails::isPrivate($found);
        if ($forSigning && !$private) {
            throw WeakKey::wrongType($this->name, 'a private key to sign with', 'a public key');
        }
        return new KeyFacts('RSA', (int) $found['bits'], null, $private);
    }

    public function sign(Key $key, string $input): string
    {
        $material = $key->material;
        $signature = '';
        $ok = $material instanceof OpenSSLAsymmetricKey && ($this->pss
            ? openssl_private_encrypt($this->pssEncode($input, $key->facts->bits), $signature, $material, OPENSSL_NO_PADDING)
            : openssl_sign($input, $signature, $material, $this->hash));
        if (!$ok) {
            throw SignatureRejected::signingFailed($this->name, (string) openssl_error_string());
        }
        return $signature;
    }

    public function verify(Key $key, string $input, string $signature): bool
    {
        $material = $key->material;
        if (!$material instanceof OpenSSLAsymmetricKey) {
            return false;
        }
        // RFC 8017 section 8.1.2 step 1 (and 8.2.2): a signature is exactly as long as the modulus.
        $bytes = $key->facts->modulusBytes();
        if (strlen($signature) !== $bytes) {
            throw SignatureRejected::length($this->name, $bytes, strlen($signature));
        }
        if (!$this->pss) {
            $valid = openssl_verify($input, $signature, $material, $this->hash) === 1;
            self::clearErrors();
            return $valid;
        }
        $encoded = '';
        if (!openssl_public_decrypt($signature, $encoded, $material, OPENSSL_NO_PADDING)) {
            self::clearErrors();
            return false;
        }
        return $this->pssVerify($input, $encoded, $key->facts->bits);
    }

    /**
     * EMSA-PSS-ENCODE of $message for a modulus of $modulusBits, for the raw RSA operation: what
     * sign() hands to OpenSSL (the JWT experiment times that operation alone, too).
     */
    public function pssEncoding(string $message, int $modulusBits): string
    {
        return $this->pssEncode($message, $modulusBits);
    }

    public function hash(): string
    {
        return $this->hash;
    }

    public function isPss(): bool
    {
        return $this->pss;
    }

    /** EMSA-PSS-ENCODE (RFC 8017 section 9.1.1), padded to the modulus length for the raw RSA operation. */
    private function pssEncode(string $message, int $modulusBits): string
    {
        $hLen = $this->hashBytes;
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
        $hLen = $this->hashBytes;
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
