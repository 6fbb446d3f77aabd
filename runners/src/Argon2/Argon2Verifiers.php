<?php

declare(strict_types=1);

namespace PhpCryptoBench\Argon2;

/**
 * Which verifier checks a cell's hashes: one of another implementation than the one that made them
 * wherever this PHP has one, else that same one, clearly said (Argon2Verifier), else none (Argon2d:
 * nothing in PHP computes it; argon2-cffi checks those in the test suite).
 *
 * Who made a hash: the CLI is libargon2 (phc-winner-argon2); sodium_crypto_pwhash is libsodium;
 * password_hash is PHP's Argon2 provider, libargon2 ("standard") or libsodium ("sodium", on a PHP
 * built without libargon2), and so is password_verify. libsodium's sodium_crypto_pwhash_str_verify
 * checks Argon2i and Argon2id strings of any parallelism, computing the lanes in turn (1.0.18 on
 * Debian 12 and 13 accepts the phc-winner-argon2 README's p=4 example and rejects it for another
 * password): its 1 thread is a limit of hashing (sodium_crypto_pwhash has no parallelism parameter),
 * not of verifying. It is also the cheaper check: 74 to 90 ms against password_verify's 138 to
 * 148 ms at 64 MiB, t=3, p=1 (amd-epyc, libsodium's vectorised code against Debian's libargon2).
 * So on Debian every libargon2 hash is checked by libsodium and sodium's by libargon2. Where the
 * provider is libsodium, password_hash's and sodium's hashes have no second implementation in PHP:
 * they are still checked, by password_verify, so that a wrong PHC string still fails the cell, and
 * labelled the same implementation rather than called verified by a second.
 */
final class Argon2Verifiers
{
    /**
     * @param string|null $provider PASSWORD_ARGON2_PROVIDER ("standard": libargon2; "sodium": libsodium), null when PHP has no Argon2
     * @param bool $sodium whether the sodium extension is loaded
     */
    public function __construct(
        private readonly ?string $provider,
        private readonly bool $sodium,
    ) {
    }

    public static function ofThisPhp(): self
    {
        return new self(Argon2Cell::provider(), extension_loaded('sodium'));
    }

    public function for(Argon2Cell $cell): ?Argon2Verifier
    {
        if ($cell->variant === 'argon2d') {
            return null;
        }
        $made = $this->madeBy($cell);
        $available = $this->available();
        foreach ($available as $function => $library) {
            if ($library !== $made) {
                return new Argon2Verifier($function, $library);
            }
        }
        foreach ($available as $function => $library) {
            return new Argon2Verifier($function, $library, sprintf('this PHP has no second implementation of Argon2 (%s)', $this->why()));
        }
        return null;
    }

    /** How the cell's hashes are checked, as the manifest and argon2.csv's detail say it. */
    public function describeFor(Argon2Cell $cell): string
    {
        $verifier = $this->for($cell);
        if ($verifier !== null) {
            return $verifier->describe();
        }
        return $cell->variant === 'argon2d'
            ? 'not verified: nothing in PHP computes Argon2d (argon2-cffi checks it in the test suite)'
            : 'not verified: this PHP has neither Argon2 in password_verify nor the sodium extension';
    }

    /** The library that computed a cell's hash. */
    public function madeBy(Argon2Cell $cell): string
    {
        return match ($cell->interface) {
            'sodium' => Argon2Verifier::LIBSODIUM,
            'password_hash' => $this->providerLibrary() ?? Argon2Verifier::LIBARGON2,
            default => Argon2Verifier::LIBARGON2,
        };
    }

    /**
     * What this PHP can check Argon2i/Argon2id strings with, password_verify first (what applications call).
     *
     * @return array<string, string> function => library
     */
    private function available(): array
    {
        $available = [];
        if ($this->providerLibrary() !== null) {
            $available[Argon2Verifier::PASSWORD_VERIFY] = $this->providerLibrary();
        }
        if ($this->sodium) {
            $available[Argon2Verifier::SODIUM_VERIFY] = Argon2Verifier::LIBSODIUM;
        }
        return $available;
    }

    private function providerLibrary(): ?string
    {
        if ($this->provider === null) {
            return null;
        }
        return $this->provider === 'sodium' ? Argon2Verifier::LIBSODIUM : Argon2Verifier::LIBARGON2;
    }

    private function why(): string
    {
        if ($this->provider === 'sodium') {
            return 'PASSWORD_ARGON2_PROVIDER = sodium: password_verify is libsodium too';
        }
        if ($this->provider === null) {
            return 'PHP was built without Argon2: only the sodium extension computes it';
        }
        return 'the sodium extension is not loaded';
    }
}
