<?php

declare(strict_types=1);

namespace PhpCryptoBench\Argon2;

/**
 * One way to check an Argon2i/Argon2id PHC string in PHP: password_verify() (whichever library is
 * PHP's Argon2 provider) or sodium_crypto_pwhash_str_verify() (libsodium), and whether it is a second
 * implementation of Argon2 beside the one that made the hash or that same one. The same one still
 * checks the hash's PHC string (its parameters, salt and encoding, which the sodium interface writes
 * itself), not the Argon2 computation.
 */
final class Argon2Verifier
{
    public const PASSWORD_VERIFY = 'password_verify';
    public const SODIUM_VERIFY = 'sodium_crypto_pwhash_str_verify';
    public const LIBARGON2 = 'libargon2';
    public const LIBSODIUM = 'libsodium';

    /**
     * @param string $function PASSWORD_VERIFY or SODIUM_VERIFY
     * @param string $library LIBARGON2 or LIBSODIUM: the code that recomputes the hash
     * @param string|null $sameBecause null for a second implementation; else why no second one checks it
     */
    public function __construct(
        public readonly string $function,
        public readonly string $library,
        public readonly ?string $sameBecause = null,
    ) {
    }

    public function isSecondImplementation(): bool
    {
        return $this->sameBecause === null;
    }

    public function accepts(string $password, string $hash): bool
    {
        return $this->function === self::SODIUM_VERIFY ? sodium_crypto_pwhash_str_verify($hash, $password) : password_verify($password, $hash);
    }

    /** What checked the hashes, as the manifest and argon2.csv's detail say it. */
    public function describe(): string
    {
        return sprintf('%s (%s), ', $this->function, $this->library)
            . ($this->sameBecause === null ? 'a second implementation' : 'the implementation that made it: ' . $this->sameBecause);
    }
}
