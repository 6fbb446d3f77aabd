<?php

declare(strict_types=1);

namespace PhpCryptoBench\Run;

/**
 * The command line of a child PHP that is the PHP this process is: the same binary (PHP_BINARY),
 * the same ini state (`-n` when this process read no php.ini, `-c` with the file it read
 * otherwise), the extensions this process has that such a command would not load (e.g. from
 * `-d extension=mcrypt`), and the settings the manifest records (memory_limit, opcache, JIT) as
 * `-d`. Its environment is this process's, changed only by the variables an experiment declares.
 * The child still probes itself (EnvironmentProbe::process): the manifest records what measured.
 */
final class ChildPhp
{
    /** Settings that change the numbers or what runs, passed on with this process's values. */
    public const SETTINGS = ['memory_limit', 'opcache.enable', 'opcache.enable_cli', 'opcache.jit', 'opcache.jit_buffer_size', 'zend.assertions', 'pcre.jit'];

    /** @var list<string>|null */
    private static ?array $iniArguments = null;

    /**
     * PHP_BINARY with this process's ini state, then $arguments, started so that it dies with us.
     *
     * @param list<string> $arguments
     * @return list<string>
     */
    public static function command(array $arguments): array
    {
        return ParentWatch::guard([PHP_BINARY, ...self::iniArguments(), ...$arguments]);
    }

    /**
     * This process's environment with $declared on top (a declared variable wins), plus what tells
     * the child to watch its parent.
     *
     * @param array<string, string> $declared
     * @return array<string, string>
     */
    public static function environment(array $declared = []): array
    {
        $inherited = getenv();
        unset($inherited[ParentWatch::PIPE_VARIABLE]);
        return ParentWatch::childEnvironment($declared + $inherited);
    }

    /** @return list<string> */
    public static function iniArguments(): array
    {
        if (self::$iniArguments !== null) {
            return self::$iniArguments;
        }
        $loaded = php_ini_loaded_file();
        $base = $loaded === false ? ['-n'] : ['-c', $loaded];
        $arguments = $base;
        [$extensions, $zendExtensions] = self::extensionsLoadedBy($base);
        foreach (get_loaded_extensions() as $extension) {
            if (!in_array(strtolower($extension), $extensions, true) && !in_array(strtolower($extension), $zendExtensions, true)) {
                $arguments[] = '-d';
                $arguments[] = 'extension=' . strtolower($extension);
            }
        }
        foreach (get_loaded_extensions(true) as $extension) {
            if (!in_array(strtolower($extension), $zendExtensions, true)) {
                $arguments[] = '-d';
                // "Zend OPcache" is loaded as zend_extension=opcache.
                $arguments[] = 'zend_extension=' . strtolower((string) preg_replace('/^Zend /i', '', $extension));
            }
        }
        foreach (self::SETTINGS as $setting) {
            $value = ini_get($setting);
            if ($value !== false) {
                $arguments[] = '-d';
                $arguments[] = $setting . '=' . $value;
            }
        }
        return self::$iniArguments = $arguments;
    }

    /**
     * The extensions and Zend extensions (lower case) a PHP started with $base loads by itself.
     *
     * @param list<string> $base
     * @return array{0: list<string>, 1: list<string>}
     */
    private static function extensionsLoadedBy(array $base): array
    {
        $script = 'echo json_encode([get_loaded_extensions(), get_loaded_extensions(true)]);';
        $process = proc_open([PHP_BINARY, ...$base, '-r', $script], [0 => ['file', '/dev/null', 'r'], 1 => ['pipe', 'w'], 2 => ['file', '/dev/null', 'w']], $pipes);
        $output = '';
        if (is_resource($process)) {
            $output = (string) stream_get_contents($pipes[1]);
            fclose($pipes[1]);
            proc_close($process);
        }
        $lists = json_decode($output, true);
        if (!is_array($lists) || !is_array($lists[0] ?? null) || !is_array($lists[1] ?? null)) {
            // Cannot tell: pass on every extension; loading one twice only warns on stderr.
            return [[], []];
        }
        $lower = static fn (array $names): array => array_values(array_map(static fn (mixed $name): string => strtolower((string) $name), $names));
        return [$lower($lists[0]), $lower($lists[1])];
    }
}
