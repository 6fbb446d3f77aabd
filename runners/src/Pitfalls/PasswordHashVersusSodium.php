<?php

declare(strict_types=1);

namespace PhpCryptoBench\Pitfalls;

use PhpCryptoBench\Exception\VerificationFailed;
use PhpCryptoBench\Native\NativePrimitive;

/**
 * Argon2id at equal parameters (OWASP's 19 MiB, 2 passes, 1 thread) through password_hash()
 * (libargon2, or libsodium where that is PHP's provider) and sodium_crypto_pwhash_str() (libsodium).
 * Both write the same PHC string format; each hash is checked by the other implementation.
 */
final class PasswordHashVersusSodium implements Pitfall
{
    public const NAME = 'password-hash-vs-sodium';
    public const MEMORY_KIB = 19456;
    public const TIME_COST = 2;
    private const PASSWORD = 'correct horse battery staple';

    public function name(): string
    {
        return self::NAME;
    }

    public static function unavailableReason(): ?string
    {
        if (!defined('PASSWORD_ARGON2ID')) {
            return 'this PHP has no Argon2id in password_hash()';
        }
        return extension_loaded('sodium') ? null : 'the sodium extension is not loaded';
    }

    private static function prefix(): string
    {
        return sprintf('$argon2id$v=19$m=%d,t=%d,p=1$', self::MEMORY_KIB, self::TIME_COST);
    }

    public function variants(): array
    {
        $passwordHash = static fn (): string => password_hash(self::PASSWORD, PASSWORD_ARGON2ID, ['memory_cost' => self::MEMORY_KIB, 'time_cost' => self::TIME_COST, 'threads' => 1]);
        $sodium = static fn (): string => sodium_crypto_pwhash_str(self::PASSWORD, self::TIME_COST, self::MEMORY_KIB * 1024);
        // Each hash must carry the parameters asked for and verify with the other implementation.
        $checkedBySodium = static fn (mixed $hash): ?string => is_string($hash) && str_starts_with($hash, self::prefix()) && sodium_crypto_pwhash_str_verify($hash, self::PASSWORD) ? null : 'expected a hash that sodium_crypto_pwhash_str_verify() accepts';
        $checkedByPasswordVerify = static fn (mixed $hash): ?string => is_string($hash) && str_starts_with($hash, self::prefix()) && password_verify(self::PASSWORD, $hash) ? null : 'expected a hash that password_verify() accepts';
        return [
            new PitfallCase(self::NAME, 'password_hash', $passwordHash, $checkedBySodium),
            new PitfallCase(self::NAME, 'sodium_crypto_pwhash_str', $sodium, $checkedByPasswordVerify),
        ];
    }

    public function agreement(): string
    {
        [$passwordHash, $sodium] = $this->variants();
        $first = $passwordHash->once();
        $second = $sodium->once();
        if (password_verify(self::PASSWORD . '!', $second) || sodium_crypto_pwhash_str_verify($first, self::PASSWORD . '!')) {
            throw VerificationFailed::knownAnswerMismatch(self::NAME, 'a wrong password refused by both', 'one accepted it');
        }
        return sprintf('%s: %s… hashes from password_hash() verify with sodium_crypto_pwhash_str_verify(), those from sodium_crypto_pwhash_str() with password_verify(), and a wrong password fails both', self::NAME, self::prefix());
    }

    public function native(): ?NativePrimitive
    {
        return null;
    }
}
