<?php

declare(strict_types=1);

namespace PhpCryptoBench\Pq;

use PhpCryptoBench\Exception\KeyOperationFailed;
use PhpCryptoBench\Run\ParentWatch;

/**
 * Private keys made by the `openssl` command, as a PHP developer must make ML-DSA keys today:
 * openssl_pkey_new() has no ML-DSA key type. `openssl genpkey` writes the PEM to its standard output,
 * which is read into memory: no key is ever written to a file.
 */
final class CliKeys
{
    public function __construct(private readonly string $binary = 'openssl')
    {
    }

    /** @throws KeyOperationFailed when the command cannot make such a key (e.g. OpenSSL before 3.5 and ML-DSA) */
    public function generate(PqScheme $scheme): string
    {
        return $this->genpkey($scheme->name, $scheme->genpkey);
    }

    /**
     * The PEM `openssl genpkey ARGUMENTS` writes (e.g. ['-algorithm', 'ML-KEM-768']).
     *
     * @param list<string> $arguments
     * @throws KeyOperationFailed
     */
    public function genpkey(string $name, array $arguments): string
    {
        $command = [$this->binary, 'genpkey', ...$arguments];
        $process = @proc_open(ParentWatch::guard($command), [0 => ['pipe', 'r'], 1 => ['pipe', 'w'], 2 => ['pipe', 'w']], $pipes);
        if (!is_resource($process)) {
            throw KeyOperationFailed::of($name, implode(' ', $command), 'could not start ' . $this->binary);
        }
        fclose($pipes[0]);
        $pem = (string) stream_get_contents($pipes[1]);
        $error = (string) stream_get_contents($pipes[2]);
        fclose($pipes[1]);
        fclose($pipes[2]);
        $status = proc_close($process);
        if ($status !== 0 || !str_starts_with($pem, '-----BEGIN PRIVATE KEY-----')) {
            throw KeyOperationFailed::of($name, implode(' ', $command), sprintf('exit status %d: %s', $status, self::firstLine($error)));
        }
        return $pem;
    }

    /** The command's version line (`openssl version`), for the reason a stack cannot run the experiment. */
    public function version(): string
    {
        $process = @proc_open([$this->binary, 'version'], [0 => ['pipe', 'r'], 1 => ['pipe', 'w'], 2 => ['pipe', 'w']], $pipes);
        if (!is_resource($process)) {
            return 'not found';
        }
        fclose($pipes[0]);
        $version = trim((string) stream_get_contents($pipes[1]));
        fclose($pipes[1]);
        fclose($pipes[2]);
        proc_close($process);
        return $version === '' ? 'unknown' : $version;
    }

    private static function firstLine(string $text): string
    {
        foreach (preg_split('/\R/', $text) ?: [] as $line) {
            if (trim($line) !== '') {
                return trim($line);
            }
        }
        return '';
    }
}
