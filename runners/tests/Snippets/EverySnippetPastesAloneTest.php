<?php

declare(strict_types=1);

namespace PhpCryptoBench\Tests\Snippets;

use PhpCryptoBench\Tests\Support\GenpkeyRsaPssKey;
use PHPUnit\Framework\Attributes\DataProvider;
use PHPUnit\Framework\TestCase;

/**
 * Every file of runners/snippets/ runs when pasted alone: copied into an empty temporary directory
 * (with only the other snippets it names by require_once __DIR__ . '/x.php', themselves recipes of the
 * site), and run by `php -n` (no php.ini: only what is compiled in, plus ext-openssl and ext-sodium
 * where they are shared modules), with no autoloader and nothing of phpcrypto-bench. Each run
 * exercises the snippet's functions (a round trip at least) and must print "ok" and nothing else.
 */
final class EverySnippetPastesAloneTest extends TestCase
{
    /**
     * snippet => [PHP run after the snippet is required, which prints "ok" when it works; files to write
     * beside it first (name => callable returning the contents)]
     *
     * @return array<string, array{0: string, 1?: array<string, callable(): string>}>
     */
    private static function exercises(): array
    {
        return [
            'aead-key-rotation.php' => [<<<'PHP'
                $keys = [1 => sodium_crypto_aead_xchacha20poly1305_ietf_keygen(), 2 => sodium_crypto_aead_xchacha20poly1305_ietf_keygen()];
                $sealed = rotating_seal('secret', 'users.email:42', $keys, 1);
                $resealed = rotating_reseal($sealed, 'users.email:42', $keys, 2);
                check(rotating_open($resealed, 'users.email:42', $keys) === 'secret' && rotating_key_id($resealed) === 2);
                refused(fn () => rotating_open($sealed, 'users.email:43', $keys));
                PHP],
            'aead-xchacha20poly1305.php' => [<<<'PHP'
                $key = sodium_crypto_aead_xchacha20poly1305_ietf_keygen();
                check(xchacha20poly1305_open(xchacha20poly1305_seal("a\0b", 'ad', $key), 'ad', $key) === "a\0b");
                refused(fn () => xchacha20poly1305_open(xchacha20poly1305_seal('x', 'ad', $key), 'other', $key));
                PHP],
            'aes-256-gcm.php' => [<<<'PHP'
                $key = random_bytes(32);
                check(aes256gcm_open(aes256gcm_seal("a\0b", 'ad', $key), 'ad', $key) === "a\0b");
                refused(fn () => aes256gcm_open(aes256gcm_seal('x', 'ad', $key), 'other', $key));
                PHP],
            'argon2id-sodium-same-parameters.php' => [<<<'PHP'
                $options = ['memory_cost' => 19456, 'time_cost' => 2, 'threads' => 1];
                $hash = argon2id_hash_with_sodium('correct horse', $options);
                check(password_verify('correct horse', $hash) && argon2id_login('correct horse', $hash, $options) === $hash);
                check(argon2id_login('wrong', $hash, $options) === null);
                refused(fn () => argon2id_hash_with_sodium('p', ['memory_cost' => 8, 'time_cost' => 1, 'threads' => 1]));
                PHP],
            'bcrypt-cost-and-rehash.php' => [<<<'PHP'
                $hash = bcrypt_hash('correct horse', 10);
                check(password_verify('correct horse', $hash) && bcrypt_login('correct horse', $hash, 10) === $hash);
                check(str_starts_with((string) bcrypt_login('correct horse', $hash, 11), '$2y$11$'));
                refused(fn () => bcrypt_hash('p', 4));
                PHP],
            'cbc-encrypt-then-mac.php' => [<<<'PHP'
                $key = random_bytes(32);
                check(cbc_hmac_open(cbc_hmac_seal("a\0b", 'ad', $key), 'ad', $key) === "a\0b");
                refused(fn () => cbc_hmac_open(cbc_hmac_seal('x', 'ad', $key), 'other', $key));
                PHP],
            'jwt-verify-allow-list.php' => [<<<'PHP'
                $b64 = fn (string $s): string => rtrim(strtr(base64_encode($s), '+/', '-_'), '=');
                $pair = sodium_crypto_sign_keypair();
                $jwks = ['keys' => [['kty' => 'OKP', 'crv' => 'Ed25519', 'alg' => 'Ed25519', 'kid' => 'k1', 'use' => 'sig', 'x' => $b64(sodium_crypto_sign_publickey($pair))]]];
                $now = 1700000000;
                $claims = ['iss' => 'https://issuer.example', 'aud' => 'https://api.example', 'iat' => $now, 'exp' => $now + 300];
                $input = $b64(json_encode(['alg' => 'Ed25519', 'typ' => 'JWT', 'kid' => 'k1'])) . '.' . $b64(json_encode($claims));
                $token = $input . '.' . $b64(sodium_crypto_sign_detached($input, sodium_crypto_sign_secretkey($pair)));
                $keys = jwt_keys_from_jwks($jwks);
                check(jwt_verify($token, $keys, 'https://issuer.example', 'https://api.example', $now) === $claims);
                refused(fn () => jwt_verify($token, $keys, 'https://issuer.example', 'https://other.example', $now));
                PHP],
            'mcrypt-ciphertext-with-openssl.php' => [<<<'PHP'
                $oldKey = random_bytes(16); $iv = random_bytes(16); $newKey = sodium_crypto_aead_xchacha20poly1305_ietf_keygen();
                $ciphertext = openssl_encrypt(str_pad('old record', 16, "\0"), 'aes-128-cbc', $oldKey, OPENSSL_RAW_DATA | OPENSSL_ZERO_PADDING, $iv);
                check(mcrypt_cbc_decrypt($ciphertext, $oldKey, $iv, 'rijndael-128') === 'old record');
                $sealed = mcrypt_cbc_reseal($ciphertext, $oldKey, $iv, 'rijndael-128', 'ad', $newKey);
                check(xchacha20poly1305_open($sealed, 'ad', $newKey) === 'old record');
                refused(fn () => mcrypt_cbc_decrypt($ciphertext, $oldKey, $iv, 'rijndael-256'));
                PHP],
            'p256-keygen-minimal-config.php' => [<<<'PHP'
                $key = p256_new_private_key(__DIR__ . '/openssl-minimal.cnf');
                check(openssl_sign('data', $signature, $key, 'sha256'));
                check(openssl_verify('data', $signature, openssl_pkey_get_details($key)['key'], 'sha256') === 1);
                check(openssl_pkey_get_details($key)['ec']['curve_name'] === 'prime256v1');
                PHP, ['openssl-minimal.cnf' => static fn (): string => "[ req ]\ndefault_bits = 2048\ndefault_md = sha256\n"]],
            'ps256-rsassa-pss-key.php' => [<<<'PHP'
                [$pssPublicKey, $signatureBytes] = ps256_public_key(file_get_contents(__DIR__ . '/public.pem'));
                check(openssl_sign('data', $signature, openssl_pkey_get_private(file_get_contents(__DIR__ . '/private.pem')), 'sha256'));
                check(ps256_verify($pssPublicKey, $signatureBytes, 'data', $signature));
                check(!ps256_verify($pssPublicKey, $signatureBytes, 'other', $signature));
                PHP, ['private.pem' => [self::class, 'pssPrivatePem'], 'public.pem' => [self::class, 'pssPublicPem']]],
            'public-key-object.php' => [<<<'PHP'
                $key = openssl_pkey_new(['private_key_type' => OPENSSL_KEYTYPE_EC, 'curve_name' => 'prime256v1']);
                check(openssl_sign('data', $signature, $key, 'sha256'));
                $verifier = public_key_verifier(openssl_pkey_get_details($key)['key']);
                check(public_key_verify($verifier, 'data', $signature) && !public_key_verify($verifier, 'other', $signature));
                PHP],
            'record-in-one-call.php' => [<<<'PHP'
                $key = random_bytes(32);
                check(record_open(record_seal(['a', '', "b\0"], 'ad', $key), 'ad', $key) === ['a', '', "b\0"]);
                check(record_open_field_by_field(record_seal_field_by_field(['a', 'b'], 'ad', $key), 'ad', $key) === ['a', 'b']);
                refused(fn () => record_open(record_seal(['a'], 'ad', $key), 'other', $key));
                PHP],
            'secretstream-large-payload.php' => [<<<'PHP'
                $key = sodium_crypto_secretstream_xchacha20poly1305_keygen();
                $plain = random_bytes(200000);
                $in = fopen('php://memory', 'w+b'); fwrite($in, $plain); rewind($in);
                $enc = fopen('php://memory', 'w+b');
                secretstream_encrypt($in, $enc, 'ad', $key);
                rewind($enc);
                $out = fopen('php://memory', 'w+b');
                secretstream_decrypt($enc, $out, 'ad', $key);
                rewind($out);
                check(stream_get_contents($out) === $plain);
                PHP],
            'x25519-shared-key.php' => [<<<'PHP'
                $alice = x25519_key_pair(); $bob = x25519_key_pair();
                $key = x25519_shared_key($alice['secretKey'], $bob['publicKey'], 'context');
                check(strlen($key) === 32 && $key === x25519_shared_key($bob['secretKey'], $alice['publicKey'], 'context'));
                PHP],
            'ml-dsa-sign-verify.php' => [<<<'PHP'
                if (!defined('OPENSSL_VERSION_NUMBER') || OPENSSL_VERSION_NUMBER < 0x30500000) { echo 'ok'; return; }
                $private = openssl_pkey_get_private(file_get_contents(__DIR__ . '/private.pem'));
                $signature = ml_dsa_sign('data', $private);
                $public = ml_dsa_public_key(openssl_pkey_get_details($private)['key']);
                check(ml_dsa_verify($public, 'data', $signature) && !ml_dsa_verify($public, 'other', $signature));
                PHP, ['private.pem' => [self::class, 'mlDsaPrivatePem']]],
        ];
    }

    public function testEverySnippetHasAnExerciseAndEveryExerciseASnippet(): void
    {
        $files = array_map('basename', glob(SnippetTestCase::DIRECTORY . '/*.php') ?: []);
        $exercised = array_keys(self::exercises());
        self::assertSame([], array_values(array_diff($files, $exercised)), 'snippets that no exercise here runs pasted alone');
    }

    /** @return iterable<string, array{string}> */
    public static function snippets(): iterable
    {
        $files = array_map('basename', glob(SnippetTestCase::DIRECTORY . '/*.php') ?: []);
        sort($files);
        foreach ($files as $file) {
            yield $file => [$file];
        }
    }

    /** @dataProvider snippets */
    #[DataProvider('snippets')]
    public function testTheSnippetRunsPastedAloneWithBundledExtensionsOnly(string $file): void
    {
        $exercises = self::exercises();
        self::assertArrayHasKey($file, $exercises, 'no exercise for ' . $file);
        $source = (string) file_get_contents(SnippetTestCase::DIRECTORY . '/' . $file);
        self::assertDoesNotMatchRegularExpression('/\bPhpCryptoBench\\\\/', $source, 'a pasted snippet has none of phpcrypto-bench\'s classes');
        self::assertDoesNotMatchRegularExpression('/\b(?:autoload|vendor\/)/i', $source, 'a pasted snippet needs no autoloader');

        $directory = sys_get_temp_dir() . '/pcb-paste-' . bin2hex(random_bytes(4));
        mkdir($directory);
        try {
            foreach (self::snippetAndSiblings($file) as $name) {
                copy(SnippetTestCase::DIRECTORY . '/' . $name, $directory . '/' . $name);
            }
            foreach ($exercises[$file][1] ?? [] as $name => $contents) {
                file_put_contents($directory . '/' . $name, $contents());
            }
            $helpers = <<<'PHP'
                function check(bool $condition): void { if (!$condition) { throw new LogicException('a check failed'); } }
                function refused(callable $call): void { try { $call(); } catch (Throwable $e) { return; } throw new LogicException('expected a refusal'); }
                PHP;
            file_put_contents($directory . '/run.php', "<?php\n\ndeclare(strict_types=1);\n\nrequire __DIR__ . '/" . $file . "';\n" . $helpers . "\n" . $exercises[$file][0] . "\necho 'ok';\n");
            [$status, $stdout, $stderr] = self::execute([PHP_BINARY, '-n', ...self::bundledExtensions(), '-d', 'display_errors=stderr', '-d', 'error_reporting=-1', $directory . '/run.php'], $directory);
        } finally {
            array_map('unlink', glob($directory . '/*') ?: []);
            rmdir($directory);
        }
        self::assertSame([0, 'ok', ''], [$status, $stdout, $stderr], $file . ' pasted alone');
    }

    /** @return list<string> $file and the snippets it requires beside it, transitively */
    private static function snippetAndSiblings(string $file): array
    {
        $names = [$file];
        for ($i = 0; $i < count($names); $i++) {
            $source = (string) file_get_contents(SnippetTestCase::DIRECTORY . '/' . $names[$i]);
            preg_match_all("/require(?:_once)?\\s+__DIR__\\s*\\.\\s*'\\/([a-z0-9-]+\\.php)'/", $source, $matches);
            foreach ($matches[1] as $sibling) {
                self::assertFileExists(SnippetTestCase::DIRECTORY . '/' . $sibling, $names[$i] . ' requires a file that is not a snippet');
                if (!in_array($sibling, $names, true)) {
                    $names[] = $sibling;
                }
            }
        }
        return $names;
    }

    /** @var list<string>|null what bundledExtensions() found: the same PHP binary for every snippet */
    private static ?array $bundledExtensions = null;

    /**
     * Asked of `php -n` once per run, not once per snippet: one PHP process fewer for each.
     *
     * @return list<string> -d extension=... for openssl and sodium where `php -n` lacks them (shared modules)
     */
    private static function bundledExtensions(): array
    {
        return self::$bundledExtensions ??= self::extensionsPhpNLacks();
    }

    /** @return list<string> */
    private static function extensionsPhpNLacks(): array
    {
        [, $loaded] = self::execute([PHP_BINARY, '-n', '-r', 'echo json_encode([extension_loaded("openssl"), extension_loaded("sodium")]);'], sys_get_temp_dir());
        [$openssl, $sodium] = json_decode($loaded, true) ?? [false, false];
        return [...($openssl ? [] : ['-d', 'extension=openssl']), ...($sodium ? [] : ['-d', 'extension=sodium'])];
    }

    /**
     * @param list<string> $command
     * @return array{0: int, 1: string, 2: string}
     */
    private static function execute(array $command, string $directory): array
    {
        $process = proc_open($command, [1 => ['pipe', 'w'], 2 => ['pipe', 'w']], $pipes, $directory, ['PATH' => (string) getenv('PATH')]);
        self::assertIsResource($process);
        $stdout = (string) stream_get_contents($pipes[1]);
        $stderr = (string) stream_get_contents($pipes[2]);
        fclose($pipes[1]);
        fclose($pipes[2]);
        return [proc_close($process), $stdout, $stderr];
    }

    public static function pssPrivatePem(): string
    {
        return GenpkeyRsaPssKey::privatePem();
    }

    public static function pssPublicPem(): string
    {
        return GenpkeyRsaPssKey::publicPem();
    }

    public static function mlDsaPrivatePem(): string
    {
        [$status, $pem] = self::execute(['openssl', 'genpkey', '-algorithm', 'ML-DSA-65'], sys_get_temp_dir());
        return $status === 0 ? $pem : '';
    }
}
