<?php

declare(strict_types=1);

/*
 * bcrypt (password_hash() with PASSWORD_BCRYPT, PHP's PASSWORD_DEFAULT) at the highest cost your server
 * affords, and kept there: the cost measured on the server itself, and on every login a rehash when the
 * stored hash has another cost, or an older algorithm than bcrypt (never an Argon2 hash: that one is
 * kept, not rehashed down to bcrypt). Where PHP has Argon2id, prefer it
 * (argon2id-sodium-same-parameters.php): bcrypt is not memory-hard, and it reads only the first 72
 * bytes of a password.
 *
 * The cost: each step doubles a hash's time. bcrypt_highest_cost() times three hashes at each cost from
 * $lowest up and returns the highest whose median fits $budgetMs (null when even $lowest does not), on
 * the machine that runs it: run it there, at a quiet moment, and keep the result in your configuration.
 * Never below cost 10, OWASP's floor: the functions refuse it. The server must afford one hash of that
 * time per login, times the logins it serves at once.
 *
 *   $cost = bcrypt_highest_cost(250.0);                           // once, on the production machine
 *   $hash = bcrypt_hash($password, $cost);                        // on sign-up or password change
 *   $keep = bcrypt_login($password, $storedHash, $cost);          // on login: null if wrong
 *   if ($keep !== null && $keep !== $storedHash) { store $keep }  // the cost changed, or an old algorithm
 *
 * PHPUnit runs this file: runners/tests/Snippets/BcryptCostAndRehashTest.php (phpcrypto-bench), and the
 * benchmark times bcrypt at costs 10 to 13 beside Argon2id (argon2 experiment).
 */

/** @return int|null the highest cost from $lowest to $highest whose median of three hashes fits $budgetMs */
function bcrypt_highest_cost(float $budgetMs, int $lowest = 10, int $highest = 16): ?int
{
    bcrypt_check_cost($lowest);
    bcrypt_check_cost($highest);
    if ($lowest > $highest) {
        throw new InvalidArgumentException(sprintf('expected the lowest cost first, got %d to %d', $lowest, $highest));
    }
    $fits = null;
    for ($cost = $lowest; $cost <= $highest; $cost++) {
        $milliseconds = [];
        for ($i = 0; $i < 3; $i++) {
            $start = hrtime(true);
            password_hash('a password to time', PASSWORD_BCRYPT, ['cost' => $cost]);
            $milliseconds[] = (hrtime(true) - $start) / 1e6;
        }
        sort($milliseconds);
        if ($milliseconds[1] > $budgetMs) {
            break; // the next cost takes twice as long: it cannot fit either
        }
        $fits = $cost;
    }
    return $fits;
}

function bcrypt_hash(#[\SensitiveParameter] string $password, int $cost): string
{
    bcrypt_check_cost($cost);
    // bcrypt ignores every byte after the 72nd: refuse such a password rather than keep only part of it.
    if (strlen($password) > 72) {
        throw new InvalidArgumentException(sprintf('expected a password of at most 72 bytes for bcrypt, got %d bytes', strlen($password)));
    }
    return password_hash($password, PASSWORD_BCRYPT, ['cost' => $cost]);
}

/**
 * On login: null when the password is wrong; otherwise the hash to keep, $storedHash or a new one at
 * $cost. An Argon2i or Argon2id hash is kept as it is: bcrypt is not memory-hard, so rehashing one to
 * bcrypt would be a downgrade. Hashes password_hash() does not make (crypt()'s MD5 or SHA-512, say) are
 * older than bcrypt and are replaced.
 */
function bcrypt_login(#[\SensitiveParameter] string $password, string $storedHash, int $cost): ?string
{
    bcrypt_check_cost($cost);
    if (!password_verify($password, $storedHash)) {
        return null;
    }
    $algorithm = password_get_info($storedHash)['algo'];
    if ($algorithm !== null && $algorithm !== PASSWORD_BCRYPT) {
        return $storedHash;
    }
    // A bcrypt hash of another cost, or an older algorithm's, is replaced now, while the password is at
    // hand; a password longer than bcrypt reads keeps the hash it has (bcrypt_hash() would refuse it).
    if (password_needs_rehash($storedHash, PASSWORD_BCRYPT, ['cost' => $cost]) && strlen($password) <= 72) {
        return bcrypt_hash($password, $cost);
    }
    return $storedHash;
}

function bcrypt_check_cost(int $cost): void
{
    if ($cost < 10 || $cost > 31) {
        throw new InvalidArgumentException(sprintf("expected a bcrypt cost from 10 (OWASP's floor) to 31, got %d", $cost));
    }
}
