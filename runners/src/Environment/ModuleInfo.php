<?php

declare(strict_types=1);

namespace PhpCryptoBench\Environment;

/**
 * What PHP's extensions report of themselves only through phpinfo(): the OpenSSL library the
 * process loaded (OPENSSL_VERSION_TEXT is the header PHP was compiled against, and Debian updates
 * libssl without rebuilding PHP), libsodium's library version, libmcrypt's version. Read once per
 * process: phpinfo() renders every module.
 */
final class ModuleInfo
{
    private static ?string $text = null;

    /** The value of the first line "<$label> => <value>" after the line "<$section>" (or anywhere). */
    public static function value(string $label, ?string $section = null): ?string
    {
        $text = self::text();
        if ($section !== null) {
            $start = strpos($text, "\n" . $section);
            if ($start === false) {
                return null;
            }
            $text = substr($text, $start);
        }
        $pattern = '/^' . preg_quote($label, '/') . ' => ([^\n]+)$/m';
        return preg_match($pattern, $text, $match) === 1 ? trim($match[1]) : null;
    }

    private static function text(): string
    {
        if (self::$text === null) {
            ob_start();
            phpinfo(INFO_MODULES);
            self::$text = "\n" . (string) ob_get_clean();
        }
        return self::$text;
    }
}
