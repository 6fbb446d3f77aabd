<?php

declare(strict_types=1);

namespace PhpCryptoBench\Tests\Support;

/**
 * One RSASSA-PSS key pair (SHA-256, MGF1-SHA-256, a 32-byte salt) made by `openssl genpkey`, as the
 * PS256 snippet's readers would make it, once for the suite: the snippet's test and its pasted-alone
 * run both read it, and a 2048-bit key costs the openssl command a tenth of a CPU-second each time.
 */
final class GenpkeyRsaPssKey
{
    /** @var array{private: string, public: string}|null */
    private static ?array $pems = null;

    public static function privatePem(): string
    {
        return self::pems()['private'];
    }

    public static function publicPem(): string
    {
        return self::pems()['public'];
    }

    /** @return array{private: string, public: string} */
    private static function pems(): array
    {
        if (self::$pems !== null) {
            return self::$pems;
        }
        $directory = sys_get_temp_dir() . '/pcb-genpkey-pss-' . bin2hex(random_bytes(4));
        mkdir($directory);
        try {
            MustRun::command(['openssl', 'genpkey', '-algorithm', 'RSA-PSS', '-pkeyopt', 'rsa_keygen_bits:2048', '-pkeyopt', 'rsa_pss_keygen_md:sha256', '-pkeyopt', 'rsa_pss_keygen_mgf1_md:sha256', '-pkeyopt', 'rsa_pss_keygen_saltlen:32', '-out', $directory . '/private.pem']);
            MustRun::command(['openssl', 'pkey', '-in', $directory . '/private.pem', '-pubout', '-out', $directory . '/public.pem']);
            return self::$pems = ['private' => (string) file_get_contents($directory . '/private.pem'), 'public' => (string) file_get_contents($directory . '/public.pem')];
        } finally {
            array_map('unlink', glob($directory . '/*') ?: []);
            rmdir($directory);
        }
    }
}
