<?php

declare(strict_types=1);

namespace PhpCryptoBench\Argon2;

use PhpCryptoBench\Exception\Argon2Failed;
use PhpCryptoBench\Run\ParentWatch;

/**
 * Hashes one password with one cell's parameters, and checks the result with a second
 * implementation where this PHP has one (Argon2Verifiers: on Debian, libsodium checks password_hash's
 * and the CLI's hashes, libargon2's password_verify sodium's), else with the same one, so labelled.
 */
final class Argon2Hasher implements CellHasher
{
    public const PASSWORD = 'correct horse battery staple';
    private const HASH_BYTES = 32;

    private readonly Argon2Verifiers $verifiers;

    /** @param Argon2Verifiers|null $verifiers null: this PHP's (its Argon2 provider, its sodium extension) */
    public function __construct(private readonly string $cliBinary = 'argon2', ?Argon2Verifiers $verifiers = null)
    {
        $this->verifiers = $verifiers ?? Argon2Verifiers::ofThisPhp();
    }

    /** @throws Argon2Failed when the CLI fails; password_hash and sodium throw their own errors (ValueError, SodiumException) */
    public function hash(Argon2Cell $cell): string
    {
        return match ($cell->interface) {
            'password_hash' => $this->passwordHash($cell),
            'sodium' => $this->sodium($cell),
            default => $this->cli($cell, random_bytes(16)),
        };
    }

    public function verify(Argon2Cell $cell, string $hash): ?bool
    {
        return $this->verifier($cell)?->accepts(self::PASSWORD, $hash);
    }

    /** What checks the cell's hashes; null when nothing in this PHP can (Argon2d). */
    public function verifier(Argon2Cell $cell): ?Argon2Verifier
    {
        return $this->verifiers->for($cell);
    }

    /** Argon2Verifiers::describeFor(): what checks the cell's hashes, or why nothing does. */
    public function verification(Argon2Cell $cell): string
    {
        return $this->verifiers->describeFor($cell);
    }

    private function passwordHash(Argon2Cell $cell): string
    {
        $algorithm = $cell->variant === 'argon2i' ? PASSWORD_ARGON2I : PASSWORD_ARGON2ID;
        return password_hash(self::PASSWORD, $algorithm, ['memory_cost' => $cell->memoryKib, 'time_cost' => $cell->timeCost, 'threads' => $cell->threads]);
    }

    private function sodium(Argon2Cell $cell): string
    {
        $salt = random_bytes(SODIUM_CRYPTO_PWHASH_SALTBYTES);
        $algorithm = $cell->variant === 'argon2i' ? SODIUM_CRYPTO_PWHASH_ALG_ARGON2I13 : SODIUM_CRYPTO_PWHASH_ALG_ARGON2ID13;
        // sodium takes memory in bytes, not KiB.
        $raw = sodium_crypto_pwhash(self::HASH_BYTES, self::PASSWORD, $salt, $cell->timeCost, $cell->memoryKib * 1024, $algorithm);
        return sprintf('$%s$v=19$m=%d,t=%d,p=1$%s$%s', $cell->variant, $cell->memoryKib, $cell->timeCost, self::b64($salt), self::b64($raw));
    }

    private function cli(Argon2Cell $cell, string $saltBytes): string
    {
        $flag = ['argon2i' => '-i', 'argon2id' => '-id', 'argon2d' => '-d'][$cell->variant];
        $command = [$this->cliBinary, self::b64($saltBytes), $flag, '-t', (string) $cell->timeCost, '-k', (string) $cell->memoryKib, '-p', (string) $cell->threads, '-l', (string) self::HASH_BYTES, '-e'];
        $process = @proc_open(ParentWatch::guard($command), [0 => ['pipe', 'r'], 1 => ['pipe', 'w'], 2 => ['pipe', 'w']], $pipes);
        if (!is_resource($process)) {
            throw Argon2Failed::cannotStart($this->cliBinary);
        }
        // A CLI that cannot be executed exits before reading (EPIPE): its exit status says why.
        @fwrite($pipes[0], self::PASSWORD);
        fclose($pipes[0]);
        $out = trim((string) stream_get_contents($pipes[1]));
        $err = trim((string) stream_get_contents($pipes[2]));
        fclose($pipes[1]);
        fclose($pipes[2]);
        $status = proc_close($process);
        if ($status !== 0 || !str_starts_with($out, '$' . $cell->variant . '$')) {
            throw Argon2Failed::cliExited($status, $err !== '' ? $err : $out);
        }
        return $out;
    }

    private static function b64(string $bytes): string
    {
        return rtrim(base64_encode($bytes), '=');
    }
}
