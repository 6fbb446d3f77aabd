<?php

declare(strict_types=1);

/*
 * Argon2id password hashes made by libsodium (sodium_crypto_pwhash_str(), whose Argon2 has SIMD
 * code) at exactly the parameters your application gives password_hash(): a switch of library must
 * never lower them. The result is the same PHC string ($argon2id$v=19$m=…,t=…,p=1$…) that
 * password_hash() writes, so password_verify() accepts it and either function can take over.
 *
 * $options is what you pass to password_hash($password, PASSWORD_ARGON2ID, $options): memory_cost
 * in KiB, time_cost, threads. Missing ones take PHP's defaults (PASSWORD_ARGON2_DEFAULT_*: 64 MiB,
 * time_cost 4, 1 thread). Pick them for your server on the benchmark's Argon2 page, with memory ×
 * concurrent logins within the server's memory, and never below OWASP's floor (OWASP Password Storage
 * Cheat Sheet, Argon2id: m = 19 MiB with t = 2, or m = 46 MiB with t = 1, p = 1): these functions
 * refuse less, as the bcrypt recipe refuses a cost below 10.
 * libsodium computes with one thread (p = 1) only: threads other than 1 are refused, not changed.
 *
 *   $hash = argon2id_hash_with_sodium($password, $options);            // on sign-up or password change
 *   $keep = argon2id_login($password, $storedHash, $options);          // on login: null if wrong
 *   if ($keep !== null && $keep !== $storedHash) { store $keep }        // parameters (or algorithm) changed
 *
 * PHPUnit runs this file: runners/tests/Snippets/Argon2idSodiumSameParametersTest.php (phpcrypto-bench).
 */

/** @param array{memory_cost?: int, time_cost?: int, threads?: int} $options password_hash()'s options */
function argon2id_hash_with_sodium(#[\SensitiveParameter] string $password, array $options = []): string
{
    ['memory_cost' => $memoryKib, 'time_cost' => $timeCost] = argon2id_sodium_options($options);
    return sodium_crypto_pwhash_str($password, $timeCost, $memoryKib * 1024);
}

/**
 * On login: null when the password is wrong; otherwise the hash to keep, which is $storedHash, or a
 * new one when $storedHash was made with other parameters or another algorithm (bcrypt, say).
 *
 * @param array{memory_cost?: int, time_cost?: int, threads?: int} $options password_hash()'s options
 */
function argon2id_login(#[\SensitiveParameter] string $password, string $storedHash, array $options = []): ?string
{
    $options = argon2id_sodium_options($options);
    if (!password_verify($password, $storedHash)) {
        return null;
    }
    if (password_needs_rehash($storedHash, PASSWORD_ARGON2ID, $options)) {
        return argon2id_hash_with_sodium($password, $options);
    }
    return $storedHash;
}

/**
 * password_hash()'s options with PHP's defaults filled in, checked for libsodium.
 *
 * @param array<string, mixed> $options
 * @return array{memory_cost: int, time_cost: int, threads: int}
 */
function argon2id_sodium_options(array $options): array
{
    $checked = [
        'memory_cost' => $options['memory_cost'] ?? PASSWORD_ARGON2_DEFAULT_MEMORY_COST,
        'time_cost' => $options['time_cost'] ?? PASSWORD_ARGON2_DEFAULT_TIME_COST,
        'threads' => $options['threads'] ?? PASSWORD_ARGON2_DEFAULT_THREADS,
    ];
    foreach ($checked as $name => $value) {
        if (!is_int($value)) {
            throw new InvalidArgumentException(sprintf('expected %s as an integer, got %s', $name, get_debug_type($value)));
        }
    }
    if ($checked['threads'] !== 1) {
        throw new InvalidArgumentException(sprintf(
            'expected threads = 1, got %1$d: libsodium computes Argon2id with one thread (p = 1) only; keep '
            . 'password_hash() for hashes with p = %1$d, or choose threads = 1',
            $checked['threads'],
        ));
    }
    // OWASP's floor for Argon2id (OWASP Password Storage Cheat Sheet, p = 1): m >= 19 MiB (19456 KiB)
    // with t >= 2, or m >= 46 MiB (47104 KiB) with t = 1. Anything less is refused, not raised.
    $memoryKib = $checked['memory_cost'];
    $timeCost = $checked['time_cost'];
    if ($timeCost < 1 || $memoryKib < 19456 || ($timeCost < 2 && $memoryKib < 47104)) {
        throw new InvalidArgumentException(sprintf(
            "expected OWASP's floor, memory_cost >= 19456 (KiB) with time_cost >= 2 or memory_cost >= 47104 with time_cost = 1, got %d and %d",
            $memoryKib,
            $timeCost,
        ));
    }
    return $checked;
}
