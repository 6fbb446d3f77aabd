<?php

declare(strict_types=1);

namespace PhpCryptoBench\Harness;

/**
 * Whether more data fits under PHP's memory_limit. Interleaving keeps a whole group of cases alive
 * (ten AEADs on 10 MiB each hold about 300 MiB); where that does not fit, e.g. under `php -n`'s
 * 128 MiB, the group is measured one case after another instead of failing the run.
 */
final class MemoryLimit
{
    /** Of the limit, what the measurements may fill: PHP, the schema and the tables take the rest. */
    private const USABLE_SHARE = 0.75;

    public static function allows(int $bytes): bool
    {
        $limit = self::bytes((string) ini_get('memory_limit'));
        return $limit < 0 || memory_get_usage() + $bytes <= $limit * self::USABLE_SHARE;
    }

    /** memory_limit as bytes ("128M" is 134217728); −1 when there is no limit. */
    public static function bytes(string $setting): int
    {
        $setting = trim($setting);
        if ($setting === '' || $setting === '-1') {
            return -1;
        }
        $units = ['k' => 1 << 10, 'm' => 1 << 20, 'g' => 1 << 30];
        $unit = strtolower(substr($setting, -1));
        return isset($units[$unit]) ? (int) substr($setting, 0, -1) * $units[$unit] : (int) $setting;
    }
}
