<?php

declare(strict_types=1);

/*
 * What CompactJws::verify costs over a raw openssl_verify on the same key object (RS256, ES256), in
 * one process, the sides taking turns in rounds whose order rotates, so that a slower minute of the
 * machine falls on every side alike. The overhead is paired round by round: the median of the
 * per-round differences (and ratios) with its order-statistic 95 % CI (MedianInterval).
 *
 *   php scripts/jws-verify-overhead.php [--rounds 30] [--batch-ms 4] [--before GIT-REF]
 *
 * --before also loads runners/src/Jws/ as it is at GIT-REF, renamed into its own namespace, and
 * times its verify in the same rounds: a change measured before/after in one process. The raw side
 * converts the token's R‖S to DER once, as the JWT experiment's PrimitiveCase does.
 */

require dirname(__DIR__) . '/runners/bootstrap.php';

use PhpCryptoBench\Harness\MedianInterval;
use PhpCryptoBench\Jws\Algorithms;
use PhpCryptoBench\Jws\Base64Url;
use PhpCryptoBench\Jws\CompactJws;
use PhpCryptoBench\Jws\EcdsaSignature;
use PhpCryptoBench\Jws\Jwk;
use PhpCryptoBench\Jws\Key;

$options = getopt('', ['rounds:', 'batch-ms:', 'before:']);
$rounds = (int) ($options['rounds'] ?? 30);
$batchNs = (int) (1e6 * (float) ($options['batch-ms'] ?? 4));
$before = $options['before'] ?? null;
if ($rounds < 6) {
    fwrite(STDERR, "--rounds: expected at least 6 (a median's 95 % CI needs them), got $rounds\n");
    exit(2);
}

if (is_string($before)) {
    // The old files, renamed from PhpCryptoBench\Jws to Before\Jws; the exceptions stay shared.
    $directory = sys_get_temp_dir() . '/jws-before-' . bin2hex(random_bytes(4));
    mkdir($directory);
    $root = dirname(__DIR__);
    $list = shell_exec('git -C ' . escapeshellarg($root) . ' ls-tree --name-only ' . escapeshellarg($before) . ' runners/src/Jws/');
    foreach (array_filter(explode("\n", (string) $list)) as $path) {
        $source = (string) shell_exec('git -C ' . escapeshellarg($root) . ' show ' . escapeshellarg("$before:$path"));
        $source = str_replace(['namespace PhpCryptoBench\Jws;', 'PhpCryptoBench\Jws\\'], ['namespace Before\Jws;', 'Before\Jws\\'], $source);
        file_put_contents($directory . '/' . basename($path), $source);
    }
    spl_autoload_register(static function (string $class) use ($directory): void {
        if (str_starts_with($class, 'Before\Jws\\') && is_file($file = $directory . '/' . substr($class, 11) . '.php')) {
            require $file;
        }
    });
    register_shutdown_function(static fn () => exec('rm -rf ' . escapeshellarg($directory)));
}

/** @return array<string, Closure(): bool> each side's one verification, all of the same token and key object */
function sides(string $alg, ?string $before): array
{
    $private = $alg === 'RS256'
        ? openssl_pkey_new(['private_key_type' => OPENSSL_KEYTYPE_RSA, 'private_key_bits' => 2048])
        : openssl_pkey_new(['private_key_type' => OPENSSL_KEYTYPE_EC, 'curve_name' => 'prime256v1']);
    $public = Jwk::import(Jwk::publicOf($private));
    $algorithm = Algorithms::named($alg);
    $key = Key::forVerification($algorithm, $public);
    $token = CompactJws::signClaims(Key::forSigning($algorithm, $private), ['sub' => str_repeat('a', 80), 'exp' => 4102444800]);
    [$header, $payload, $signature] = explode('.', $token);
    $input = "$header.$payload";
    $raw = Base64Url::decode($signature);
    $der = $alg === 'ES256' ? EcdsaSignature::rawToDer($raw, 32, $alg) : $raw;
    $sides = [
        'raw openssl_verify' => static fn (): bool => openssl_verify($input, $der, $public, 'sha256') === 1,
        'CompactJws::verify' => static fn (): bool => CompactJws::verify($token, $key)->payload === $payload || true,
    ];
    if ($before !== null) {
        $old = Before\Jws\Key::forVerification(Before\Jws\Algorithms::named($alg), $public);
        $sides["CompactJws::verify at $before"] = static fn (): bool => Before\Jws\CompactJws::verify($token, $old)->payload !== '';
    }
    foreach ($sides as $name => $side) {
        if (!$side()) {
            throw new RuntimeException("$alg $name: the token does not verify");
        }
    }
    return $sides;
}

/** Per-operation ns of one batch. */
function batch(Closure $side, int $iterations): float
{
    $start = hrtime(true);
    for ($i = 0; $i < $iterations; $i++) {
        $side();
    }
    return (hrtime(true) - $start) / $iterations;
}

function interval(array $values, string $format): string
{
    $m = MedianInterval::of($values);
    return sprintf($format, $m->median) . ' (95 % CI ' . sprintf($format, $m->low) . ' to ' . sprintf($format, $m->high) . ')';
}

foreach (['RS256', 'ES256'] as $alg) {
    $sides = sides($alg, is_string($before) ? $before : null);
    $names = array_keys($sides);
    // Calibrate on the raw side: a batch lasts about --batch-ms.
    $perOp = batch($sides[$names[0]], 200);
    $iterations = max(10, (int) ($batchNs / max($perOp, 1.0)));
    $times = array_fill_keys($names, []);
    for ($round = 0; $round < $rounds; $round++) {
        // Rotate the order: each side runs first, second, ... equally often.
        $order = array_merge(array_slice($names, $round % count($names)), array_slice($names, 0, $round % count($names)));
        foreach ($order as $name) {
            $times[$name][] = batch($sides[$name], $iterations);
        }
    }
    printf("%s: %d rounds of %d verifications a side\n", $alg, $rounds, $iterations);
    $raw = $times[$names[0]];
    foreach ($names as $name) {
        printf("  %-34s %s\n", $name, interval(array_map(static fn (float $ns): float => $ns / 1000, $times[$name]), '%.2f µs'));
    }
    $pairs = array_map(static fn (string $name): array => [$name, $names[0]], array_slice($names, 1));
    if (count($names) === 3) {
        $pairs[] = [$names[1], $names[2]];
    }
    foreach ($pairs as [$name, $against]) {
        $differences = array_map(static fn (float $a, float $b): float => ($a - $b) / 1000, $times[$name], $times[$against]);
        $ratios = array_map(static fn (float $a, float $b): float => 100 * ($a / $b - 1), $times[$name], $times[$against]);
        printf("  %s over %s: %s, %s\n", $name, $against, interval($differences, '%+.2f µs'), interval($ratios, '%+.1f %%'));
    }
}
