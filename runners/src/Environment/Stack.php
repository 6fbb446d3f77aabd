<?php

declare(strict_types=1);

namespace PhpCryptoBench\Environment;

use PhpCryptoBench\Exception\UsageError;

/**
 * The software under the runner: the OS release of the root it runs in, PHP, the OpenSSL library
 * PHP loaded and the `openssl` command's library. `host` is the host's own PHP; any other name is
 * a root filesystem built from a distribution's packages (scripts/stack.sh), in which the runner
 * runs with the checkout bind-mounted and PHPCB_STACK set to the stack's name.
 */
final class Stack
{
    public const HOST = 'host';
    public const VARIABLE = 'PHPCB_STACK';
    /** Where the stack's launcher mounts the host's os-release (systemd's convention for containers). */
    public const HOST_OS_RELEASE = '/run/host/os-release';
    private const NAME_PATTERN = '/^[a-z0-9]+(?:[.-][a-z0-9]+)*$/';
    private const NAME_CHARS = 24;

    private function __construct(
        public readonly string $name,
        public readonly string $os,
        public readonly string $hostOs,
        public readonly string $php,
        public readonly ?string $openssl,
        public readonly ?string $opensslCli,
    ) {
    }

    /**
     * @param string $os the os-release of the root PHP runs in
     * @param string $hostOs the host's (the same unless the launcher mounted HOST_OS_RELEASE)
     * @param string|null $opensslLibrary phpinfo's "OpenSSL Library Version"
     * @param string $opensslCli the `openssl version` line of the command the native limit runs
     */
    public static function of(string $name, string $os, string $hostOs, string $php, ?string $opensslLibrary, string $opensslCli): self
    {
        return new self($name, $os, $hostOs, $php, self::versionNumber($opensslLibrary), self::cliLibrary($opensslCli));
    }

    /** The name PHPCB_STACK gives (`host` when unset); a name a run id cannot carry is refused. */
    public static function nameFromEnvironment(): string
    {
        $name = getenv(self::VARIABLE);
        if ($name === false || $name === '') {
            return self::HOST;
        }
        if (strlen($name) > self::NAME_CHARS || preg_match(self::NAME_PATTERN, $name) !== 1) {
            throw UsageError::badStackName($name, self::NAME_CHARS);
        }
        return $name;
    }

    /** "OpenSSL 3.5.9 29 Sep 2026" → "3.5.9" (null when there is no version in it). */
    public static function versionNumber(?string $text): ?string
    {
        if ($text === null || preg_match('/\b(\d+\.\d+\.\d+[a-z]?)\b/', $text, $match) !== 1) {
            return null;
        }
        return $match[1];
    }

    /**
     * What library the `openssl` command runs on: "OpenSSL 3.5.9 29 Sep 2026 (Library: OpenSSL 3.5.9
     * 29 Sep 2026)" → "3.5.9"; a command whose version line names no library is taken at its word.
     */
    public static function cliLibrary(string $versionLine): ?string
    {
        if (preg_match('/\(Library: ([^)]+)\)/', $versionLine, $match) === 1) {
            return self::versionNumber($match[1]);
        }
        return self::versionNumber($versionLine);
    }

    /** @return array{name: string, os: string, host_os: string, php: string, openssl: string|null, openssl_cli: string|null} */
    public function toManifest(): array
    {
        return [
            'name' => $this->name,
            'os' => $this->os,
            'host_os' => $this->hostOs,
            'php' => $this->php,
            'openssl' => $this->openssl,
            'openssl_cli' => $this->opensslCli,
        ];
    }
}
