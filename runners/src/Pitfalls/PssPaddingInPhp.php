<?php

declare(strict_types=1);

namespace PhpCryptoBench\Pitfalls;

use OpenSSLAsymmetricKey;
use PhpCryptoBench\Exception\VerificationFailed;
use PhpCryptoBench\Jws\OpensslErrors;
use PhpCryptoBench\Jws\RsaPssKey;
use PhpCryptoBench\Native\NativePrimitive;

/**
 * A PS256 verification (RSA-2048): PSS checked in PHP, as code does when it believes PHP cannot do
 * PSS (openssl_verify() has no padding option): the raw RSA operation, then EMSA-PSS-VERIFY with
 * MGF1 through hash() (RFC 8017 section 9.1.2, what this project's JWS code did until issue 15),
 * against openssl_verify() with the key's RSASSA-PSS form, where OpenSSL checks the padding.
 */
final class PssPaddingInPhp implements Pitfall
{
    public const NAME = 'pss-padding-in-php';
    private const MESSAGE = 'header.payload of a token';
    private const HASH = 'sha256';
    private const HASH_BYTES = 32;
    private const MODULUS_BITS = 2048;

    private readonly OpenSSLAsymmetricKey $public;
    private readonly OpenSSLAsymmetricKey $pssPublic;
    private readonly string $signature;

    public function __construct()
    {
        $private = openssl_pkey_new(['private_key_type' => OPENSSL_KEYTYPE_RSA, 'private_key_bits' => self::MODULUS_BITS]);
        $rsa = $private === false ? false : openssl_pkey_get_details($private);
        $public = $rsa === false ? false : openssl_pkey_get_public((string) $rsa['key']);
        if ($public === false) {
            throw VerificationFailed::operationFailed(self::NAME, 'expected an RSA-2048 key pair, OpenSSL refused');
        }
        $signature = '';
        if (!openssl_sign(self::MESSAGE, $signature, RsaPssKey::of($rsa['rsa'], 'PS256', self::HASH, self::HASH_BYTES), self::HASH)) {
            throw VerificationFailed::operationFailed(self::NAME, 'expected the RSASSA-PSS key to sign, OpenSSL refused');
        }
        $this->public = $public;
        $this->pssPublic = RsaPssKey::of(['n' => $rsa['rsa']['n'], 'e' => $rsa['rsa']['e']], 'PS256', self::HASH, self::HASH_BYTES);
        $this->signature = $signature;
    }

    public function name(): string
    {
        return self::NAME;
    }

    public function variants(): array
    {
        $valid = static fn (mixed $result): ?string => $result === true ? null : 'expected the signature to verify, it did not';
        return [
            new PitfallCase(self::NAME, 'pss-in-php', fn (): bool => $this->inPhp(self::MESSAGE, $this->signature), $valid),
            new PitfallCase(self::NAME, 'rsassa-pss-key', fn (): bool => $this->byOpenssl(self::MESSAGE, $this->signature), $valid),
        ];
    }

    public function agreement(): string
    {
        $other = self::MESSAGE . '.';
        $answers = [
            [$this->inPhp(self::MESSAGE, $this->signature), $this->inPhp($other, $this->signature)],
            [$this->byOpenssl(self::MESSAGE, $this->signature), $this->byOpenssl($other, $this->signature)],
        ];
        OpensslErrors::drain();
        if ($answers !== [[true, false], [true, false]]) {
            throw VerificationFailed::knownAnswerMismatch(self::NAME, 'the signature accepted and refused for another message, both ways', json_encode($answers) ?: 'other answers');
        }
        return self::NAME . ': both ways accept the PS256 signature and refuse it for another message';
    }

    public function native(): ?NativePrimitive
    {
        return null;
    }

    private function byOpenssl(string $message, string $signature): bool
    {
        return openssl_verify($message, $signature, $this->pssPublic, self::HASH) === 1;
    }

    /** The raw RSA operation, then EMSA-PSS-VERIFY (RFC 8017 section 9.1.2) with sLen = hLen. */
    private function inPhp(string $message, string $signature): bool
    {
        $encoded = '';
        if (!openssl_public_decrypt($signature, $encoded, $this->public, OPENSSL_NO_PADDING)) {
            return false;
        }
        $hLen = self::HASH_BYTES;
        $emBits = self::MODULUS_BITS - 1;
        $emLen = intdiv($emBits + 7, 8);
        $unusedBits = 8 * $emLen - $emBits;
        // For a 2048-bit modulus EM is as long as the raw operation's output (256 bytes).
        if (strlen($encoded) !== $emLen || $encoded[$emLen - 1] !== "\xbc") {
            return false;
        }
        $maskedDb = substr($encoded, 0, $emLen - $hLen - 1);
        $h = substr($encoded, $emLen - $hLen - 1, $hLen);
        if ((ord($maskedDb[0]) & (0xff << (8 - $unusedBits) & 0xff)) !== 0) {
            return false;
        }
        $db = $maskedDb ^ self::mgf1($h, $emLen - $hLen - 1);
        $db[0] = chr(ord($db[0]) & (0xff >> $unusedBits));
        $separator = $emLen - 2 * $hLen - 2;
        if (ltrim(substr($db, 0, $separator), "\0") !== '' || $db[$separator] !== "\x01") {
            return false;
        }
        $salt = substr($db, $separator + 1);
        return hash_equals($h, hash(self::HASH, str_repeat("\0", 8) . hash(self::HASH, $message, true) . $salt, true));
    }

    private static function mgf1(string $seed, int $length): string
    {
        $mask = '';
        for ($counter = 0; strlen($mask) < $length; $counter++) {
            $mask .= hash(self::HASH, $seed . pack('N', $counter), true);
        }
        return substr($mask, 0, $length);
    }
}
