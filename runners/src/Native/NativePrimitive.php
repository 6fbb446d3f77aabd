<?php

declare(strict_types=1);

namespace PhpCryptoBench\Native;

use PhpCryptoBench\Exception\NativeSpeedFailed;

/**
 * One thing `openssl speed` measures: an EVP cipher or an HMAC on blocks of a given size, or a
 * public-key algorithm by its speed name (rsa2048, ecdsap256, ecdhp256, ecdhx25519, ed25519, and from
 * OpenSSL 3.5 ML-DSA-65 or ML-KEM-768).
 * `name` is what the run's CSV calls it; arguments() is what the command gets.
 */
final class NativePrimitive
{
    public const SIGN = 'sign';
    public const VERIFY = 'verify';
    public const DERIVE = 'derive';
    public const ENCRYPT = 'encrypt';
    public const DECRYPT = 'decrypt';
    public const MAC = 'mac';
    /** A KEM's three operations (OpenSSL 3.5's ML-KEM): what `openssl speed` announces them as. */
    public const KEYGEN = 'keygen';
    public const ENCAPSULATE = 'encaps';
    public const DECAPSULATE = 'decaps';

    /** @param list<string> $arguments */
    private function __construct(
        public readonly string $name,
        public readonly int $blockBytes,
        private readonly array $arguments,
        /** @var list<string> the operations one command measures, in the order it measures them */
        public readonly array $operations,
    ) {
    }

    public static function cipher(string $evpName, int $blockBytes, bool $decrypt = false): self
    {
        self::check('cipher', '/^[a-z0-9][a-z0-9-]{1,63}$/', $evpName);
        $arguments = ['-evp', $evpName, '-bytes', (string) $blockBytes];
        return new self($evpName, self::positive($blockBytes), $decrypt ? [...$arguments, '-decrypt'] : $arguments, [$decrypt ? self::DECRYPT : self::ENCRYPT]);
    }

    public static function hmac(string $digest, int $blockBytes): self
    {
        self::check('HMAC digest', '/^sha[0-9-]{1,10}$/', $digest);
        return new self('hmac-' . $digest, self::positive($blockBytes), ['-hmac', $digest, '-bytes', (string) $blockBytes], [self::MAC]);
    }

    /**
     * rsa2048, ecdsap256, ed25519, ML-DSA-44/65/87 (sign and verify), ecdhp256, ecdhx25519 (derive) or
     * ML-KEM-512/768/1024 (keygen, encaps, decaps).
     */
    public static function publicKey(string $speedName): self
    {
        self::check('public-key algorithm', '/^(rsa[0-9]{4,5}|ecdsa[a-z0-9]{3,20}|ecdh[a-z0-9]{3,20}|ed25519|ed448|ML-DSA-(44|65|87)|ML-KEM-(512|768|1024))$/', $speedName);
        $operations = match (true) {
            str_starts_with($speedName, 'ecdh') => [self::DERIVE],
            str_starts_with($speedName, 'ML-KEM-') => [self::KEYGEN, self::ENCAPSULATE, self::DECAPSULATE],
            default => [self::SIGN, self::VERIFY],
        };
        return new self($speedName, 0, [$speedName], $operations);
    }

    /**
     * The operations one `openssl speed` command of this primitive times, each for its seconds: what the
     * run records of it, and what the tool times besides. OpenSSL 3.5 times an ML-DSA key's generation with
     * its signatures (3 seconds a command, not 2), and an RSA key's encryption and decryption, its KEM's
     * key generation, encapsulation and decapsulation and its signature's key generation, signing and
     * verification besides its sign and verify (10 seconds a command, not 2: Debian 13's 3.5.9). Counted
     * as 2, the rounds of an experiment took more than its fixed work projected on Debian 13's stack, and
     * its sampling took the rest from the experiments after it.
     *
     * @param string $toolVersion what `openssl version` prints
     */
    public function speedOperations(string $toolVersion): int
    {
        if (str_starts_with($this->name, 'ML-DSA-')) {
            return 3;
        }
        if (str_starts_with($this->name, 'rsa') && self::fromOpenssl35($toolVersion)) {
            return 10;
        }
        return count($this->operations);
    }

    private static function fromOpenssl35(string $toolVersion): bool
    {
        if (preg_match('/^OpenSSL (\d+)\.(\d+)/', $toolVersion, $m) !== 1) {
            return false;
        }
        return [(int) $m[1], (int) $m[2]] >= [3, 5];
    }

    /** @return list<string> */
    public function arguments(): array
    {
        return $this->arguments;
    }

    /** Whether this measures bytes (a cipher or an HMAC) rather than key operations. */
    public function onBlocks(): bool
    {
        return $this->blockBytes > 0;
    }

    private static function check(string $what, string $pattern, string $value): void
    {
        if (preg_match($pattern, $value) !== 1) {
            throw NativeSpeedFailed::unknownPrimitive($what, 'a name openssl speed knows, ' . trim($pattern, '/^$'), $value);
        }
    }

    private static function positive(int $blockBytes): int
    {
        if ($blockBytes < 1) {
            throw NativeSpeedFailed::unknownPrimitive('block size', 'at least 1 byte', (string) $blockBytes);
        }
        return $blockBytes;
    }
}
