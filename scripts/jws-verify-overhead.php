<?php

declare(strict_types=1);

/*
 * What a caller of CompactJws::verify pays over the raw call it stands for (RS256, ES256):
 * openssl_verify($input, $der, $key, OPENSSL_ALGO_SHA256) on the same key object, the token's
 * signature made DER once before timing (as the JWT experiment's PrimitiveCase does). One process;
 * the sides take turns in rounds whose order rotates, and the overhead is paired round by round:
 * the median of the per-round differences (and ratios) with its order-statistic 95 % CI
 * (MedianInterval).
 *
 *   php scripts/jws-verify-overhead.php [--rounds 400] [--batch-ms 1] [--before GIT-REF]
 *
 * Every batch is timed by two clocks: the wall clock (hrtime) and this process's CPU time (getrusage,
 * user + system). The overhead is the CPU time's. On a shared machine (2 cores, other people's
 * tests) a batch holds whole time slices of other processes whenever it outlasts what the scheduler
 * gives this one; how many is a small whole number that grows with the batch's own length, so a
 * wall-clock median of a few batches jumps by a whole slice over the batch's operations (a 4 ms
 * slice in a batch of 400: 10 µs a verification) and reads as JWS overhead, though none of that time
 * is spent verifying. The wall clock's overhead is printed beside the CPU time's, with how many
 * batches were preempted (getrusage's involuntary context switches): where the two overheads differ,
 * the machine was shared.
 *
 * A third side is what a careful verifier written by hand pays: split, base64url and JSON of the header, its
 * alg checked, the signature decoded (and made DER for ES256), then the same openssl_verify. Any JWS code
 * pays that much over the raw call: in a loop that does nothing else the primitive keeps its code and
 * tables in the caches, and parsing between two checks costs ECDSA more than its own instructions
 * (figures by host: docs/methodology.md, "Three layers of a JWS operation"). "CompactJws::verify over by
 * hand" is what this project's code adds beyond that.
 *
 * The host's speed is a level of its own: on this pool's VMs a neighbour slows every call 1.5-2x
 * for seconds at a time, PHP's parsing more than curve arithmetic. So each round starts with a probe,
 * one more batch of the raw call that is in no pair, and the pairs are also reported over the rounds
 * whose probe ran at the run's fastest (FastestRounds says which, and why the probe and not a side).
 * Last, where the overhead goes (breakdown()): the JWS code's own work, its signature check a known
 * answer, and what it and the raw call each cost the other when one runs right after the other.
 *
 * --before also loads runners/src/Jws/ as it is at GIT-REF, renamed into its own namespace, and
 * times its verify in the same rounds: a change measured before/after in one process.
 */

require dirname(__DIR__) . '/runners/bootstrap.php';

use PhpCryptoBench\Exception\SignatureRejected;
use PhpCryptoBench\Harness\FastestRounds;
use PhpCryptoBench\Harness\MedianInterval;
use PhpCryptoBench\Jws\Algorithm;
use PhpCryptoBench\Jws\Algorithms;
use PhpCryptoBench\Jws\Base64Url;
use PhpCryptoBench\Jws\CompactJws;
use PhpCryptoBench\Jws\Ecdsa;
use PhpCryptoBench\Jws\EcdsaSignature;
use PhpCryptoBench\Jws\Jwk;
use PhpCryptoBench\Jws\Key;
use PhpCryptoBench\Jws\KeyDetails;
use PhpCryptoBench\Jws\KeyFacts;

$options = getopt('', ['rounds:', 'batch-ms:', 'before:']);
$rounds = (int) ($options['rounds'] ?? 400);
$batchNs = (int) (1e6 * (float) ($options['batch-ms'] ?? 1));
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

/**
 * @return array{0: array<string, Closure(): bool>, 1: Closure(): bool} each side's one verification, all of the
 * same token and key object; and CompactJws::verify of that token with its signature check a known answer
 * (KnownSignature), to time the JWS code's own work
 */
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
        // The constant, as a caller writes it: given 'sha256', ext-openssl looks the name up on every call.
        'raw openssl_verify' => static fn (): bool => openssl_verify($input, $der, $public, OPENSSL_ALGO_SHA256) === 1,
        'CompactJws::verify' => static fn (): bool => CompactJws::verify($token, $key)->payload !== '',
        'by hand' => static fn (): bool => byHand($token, $alg, $public),
    ];
    if ($before !== null) {
        $old = Before\Jws\Key::forVerification(Before\Jws\Algorithms::named($alg), $public);
        $sides["CompactJws::verify at $before"] = static fn (): bool => Before\Jws\CompactJws::verify($token, $old)->payload !== '';
    }
    $ownKey = Key::forVerification(new KnownSignature($alg, $raw), $public);
    $ownWork = static fn (): bool => CompactJws::verify($token, $ownKey)->payload !== '';
    foreach ($sides + ['own work' => $ownWork] as $name => $side) {
        if (!$side()) {
            throw new RuntimeException("$alg $name: the token does not verify");
        }
    }
    try {
        CompactJws::verify("$input." . Base64Url::encode(strrev($raw)), $ownKey);
        throw new RuntimeException("$alg own work: KnownSignature accepted another signature");
    } catch (SignatureRejected) {
        // As it should: the own work's check is a known answer, not a pass.
    }
    return [$sides, $ownWork];
}

/**
 * The JWS code's own work, without the signature check: its verify() makes the DER as Ecdsa's does, then
 * accepts exactly the one signature it was given and refuses any other. Timing only: it knows no key.
 */
final class KnownSignature implements Algorithm
{
    private readonly Algorithm $real;

    public function __construct(private readonly string $name, private readonly string $signature)
    {
        $this->real = Algorithms::named($name);
    }

    public function name(): string
    {
        return $this->name;
    }

    public function facts(mixed $material, bool $forSigning, KeyDetails $details): KeyFacts
    {
        return $this->real->facts($material, $forSigning, $details);
    }

    public function sign(Key $key, string $input): string
    {
        throw new LogicException('KnownSignature only verifies');
    }

    public function verify(Key $key, string $input, string $signature): bool
    {
        $der = $this->real instanceof Ecdsa ? EcdsaSignature::rawToDer($signature, $this->real->coordinateBytes, $this->name) : $signature;
        return $der !== '' && $input !== '' && hash_equals($this->signature, $signature);
    }
}

/**
 * Where a JWS verification's overhead over the raw call goes beyond the JWS code's own instructions: each
 * evicts the other's code and data from the caches. In each round, a probe (ten raw calls), then ten of
 * each of: the own work alone and right after a raw call (timing only the own work), the raw call alone
 * and right after a CompactJws::verify (timing only the raw call); per round the mean, over the rounds
 * at the run's fastest the median of the paired differences.
 *
 * @return array{own: MedianInterval, ownAfterRaw: MedianInterval, rawAfterJws: MedianInterval, fastest: int, rounds: int}
 */
function breakdown(Closure $raw, Closure $jws, Closure $ownWork, int $rounds): array
{
    $timed = static function (?Closure $before, Closure $timed): float {
        // Alone means after its own kind: one untimed call first, or the first would follow the last series' other kind.
        ($before ?? $timed)();
        $ns = 0;
        for ($i = 0; $i < 10; $i++) {
            if ($before !== null) {
                $before();
            }
            $start = hrtime(true);
            $timed();
            $ns += hrtime(true) - $start;
        }
        return $ns / 10;
    };
    $probes = $own = $ownAfterRaw = $alone = $rawAfterJws = [];
    for ($round = 0; $round < $rounds; $round++) {
        $probes[] = $timed(null, $raw);
        $own[] = $timed(null, $ownWork);
        $ownAfterRaw[] = $timed($raw, $ownWork);
        $alone[] = $timed(null, $raw);
        $rawAfterJws[] = $timed($jws, $raw);
    }
    $fastest = FastestRounds::of($probes);
    $paired = static fn (array $after, array $before): MedianInterval => MedianInterval::of(
        array_map(static fn (int $round): float => ($after[$round] - $before[$round]) / 1000, $fastest)
    );
    return [
        'own' => MedianInterval::of(micro(pick($own, $fastest))),
        'ownAfterRaw' => $paired($ownAfterRaw, $own),
        'rawAfterJws' => $paired($rawAfterJws, $alone),
        'fastest' => count($fastest),
        'rounds' => $rounds,
    ];
}

/** A verification as its user would write it without a JWS library: the header's alg checked, the payload decoded. */
function byHand(string $token, string $alg, OpenSSLAsymmetricKey $public): bool
{
    $parts = explode('.', $token);
    if (count($parts) !== 3) {
        return false;
    }
    $header = json_decode((string) base64_decode(strtr($parts[0], '-_', '+/'), true), true, 64, JSON_THROW_ON_ERROR);
    if (!is_array($header) || ($header['alg'] ?? null) !== $alg) {
        return false;
    }
    $signature = (string) base64_decode(strtr($parts[2], '-_', '+/'), true);
    $signature = $alg === 'ES256' ? EcdsaSignature::rawToDer($signature, 32, $alg) : $signature;
    $payload = base64_decode(strtr($parts[1], '-_', '+/'), true);
    return openssl_verify($parts[0] . '.' . $parts[1], $signature, $public, OPENSSL_ALGO_SHA256) === 1 && $payload !== false;
}

/** This process's CPU time (user + system) in ns; getrusage() counts microseconds. */
function cpuNs(): int
{
    $usage = getrusage();
    return 1000 * (1_000_000 * ($usage['ru_utime.tv_sec'] + $usage['ru_stime.tv_sec']) + $usage['ru_utime.tv_usec'] + $usage['ru_stime.tv_usec']);
}

/**
 * @return array{wall: float, cpu: float, preempted: bool} per-operation ns of one batch, by the wall
 * clock and by CPU time, and whether another process ran in it (an involuntary context switch)
 */
function batch(Closure $side, int $iterations): array
{
    $switches = getrusage()['ru_nivcsw'];
    $cpu = cpuNs();
    $start = hrtime(true);
    for ($i = 0; $i < $iterations; $i++) {
        $side();
    }
    $wall = hrtime(true) - $start;
    $cpu = cpuNs() - $cpu;
    return ['wall' => $wall / $iterations, 'cpu' => $cpu / $iterations, 'preempted' => getrusage()['ru_nivcsw'] > $switches];
}

function interval(array $values, string $format): string
{
    return describe(MedianInterval::of($values), $format);
}

printf("host: %s, PHP %s, %s; load average %s\n", cpuModel(), PHP_VERSION, OPENSSL_VERSION_TEXT, implode(' ', array_map(static fn (float $l): string => sprintf('%.2f', $l), sys_getloadavg() ?: [])));
foreach (['RS256', 'ES256'] as $alg) {
    [$sides, $ownWork] = sides($alg, is_string($before) ? $before : null);
    $names = array_keys($sides);
    // Calibrate on the raw side: a batch lasts about --batch-ms.
    $perOp = batch($sides[$names[0]], 200)['cpu'];
    $iterations = max(10, (int) ($batchNs / max($perOp, 1.0)));
    $times = ['cpu' => array_fill_keys($names, []), 'wall' => array_fill_keys($names, [])];
    $probes = [];
    $preempted = 0;
    for ($round = 0; $round < $rounds; $round++) {
        $probes[] = batch($sides[$names[0]], $iterations)['cpu'];
        // Rotate the order: each side runs first, second, ... equally often.
        $order = array_merge(array_slice($names, $round % count($names)), array_slice($names, 0, $round % count($names)));
        foreach ($order as $name) {
            $batch = batch($sides[$name], $iterations);
            $times['cpu'][$name][] = $batch['cpu'];
            $times['wall'][$name][] = $batch['wall'];
            $preempted += (int) $batch['preempted'];
        }
    }
    $fastest = FastestRounds::of($probes);
    printf("%s: %d rounds of %d verifications a side; %d of %d batches preempted by other processes\n", $alg, $rounds, $iterations, $preempted, $rounds * count($names));
    printf("  host speed: the probe took %s µs a call (fastest tenth %.2f); %d of %d rounds at its fastest (within %.2fx of it)\n", implode('-', array_map(static fn (float $ns): string => sprintf('%.2f', $ns / 1000), [min($probes), max($probes)])), FastestRounds::fastestTenth($probes) / 1000, count($fastest), $rounds, FastestRounds::FACTOR);
    foreach ($names as $name) {
        printf("  %-34s %s CPU, %s wall\n", $name, interval(micro($times['cpu'][$name]), '%.2f µs'), sprintf('%.2f µs', MedianInterval::of(micro($times['wall'][$name]))->median));
    }
    // Each side over the raw call, then this project's code over what a verifier by hand pays, and over
    // itself at --before.
    $pairs = array_map(static fn (string $name): array => [$name, $names[0]], array_slice($names, 1));
    foreach (array_slice($names, 2) as $other) {
        $pairs[] = [$names[1], $other];
    }
    foreach ($pairs as [$name, $against]) {
        foreach (['cpu' => 'CPU time', 'wall' => 'wall clock'] as $clock => $label) {
            printf("  %s over %s, %s: %s\n", $name, $against, $label, overhead($times[$clock][$name], $times[$clock][$against]));
        }
        printf("  %s over %s, CPU time in the fastest rounds: %s\n", $name, $against, count($fastest) < 6
            ? sprintf('too few fastest rounds (%d of %d; a 95 %% CI needs 6)', count($fastest), $rounds)
            : overhead(pick($times['cpu'][$name], $fastest), pick($times['cpu'][$against], $fastest)));
    }
    $parts = breakdown($sides[$names[0]], $sides[$names[1]], $ownWork, $rounds);
    if ($parts['fastest'] < 6) {
        printf("  where it goes: too few fastest rounds (%d of %d; a 95 %% CI needs 6)\n", $parts['fastest'], $parts['rounds']);
        continue;
    }
    printf("  where it goes, wall clock in the fastest rounds (%d of %d, of 10 calls each):\n", $parts['fastest'], $parts['rounds']);
    printf("    CompactJws::verify's own work (its signature check a known answer): %s\n", describe($parts['own'], '%.2f µs'));
    printf("    that work right after a raw openssl_verify: %s\n", describe($parts['ownAfterRaw'], '%+.2f µs'));
    printf("    a raw openssl_verify right after a CompactJws::verify: %s\n", describe($parts['rawAfterJws'], '%+.2f µs'));
}

function describe(MedianInterval $m, string $format): string
{
    return sprintf($format, $m->median) . ' (95 % CI ' . sprintf($format, $m->low) . ' to ' . sprintf($format, $m->high) . ')';
}

/** @param list<float> $side @param list<float> $against per-round ns, paired */
function overhead(array $side, array $against): string
{
    $differences = array_map(static fn (float $a, float $b): float => ($a - $b) / 1000, $side, $against);
    $ratios = array_map(static fn (float $a, float $b): float => 100 * ($a / $b - 1), $side, $against);
    return interval($differences, '%+.2f µs') . ', ' . interval($ratios, '%+.1f %%');
}

/** @param list<float> $values @param list<int> $rounds @return list<float> */
function pick(array $values, array $rounds): array
{
    return array_map(static fn (int $round): float => $values[$round], $rounds);
}

/** @param list<float> $ns @return list<float> */
function micro(array $ns): array
{
    return array_map(static fn (float $value): float => $value / 1000, $ns);
}

function cpuModel(): string
{
    $info = is_readable('/proc/cpuinfo') ? (string) file_get_contents('/proc/cpuinfo') : '';
    $model = preg_match('/^model name\s*:\s*(.+)$/m', $info, $m) === 1 ? trim($m[1]) : php_uname('m');
    $family = preg_match('/^cpu family\s*:\s*(\d+)$/m', $info, $f) === 1 ? ", family {$f[1]}" : '';
    return $model . $family . ', ' . (substr_count($info, "\nprocessor") + (str_starts_with($info, 'processor') ? 1 : 0)) . ' CPUs';
}
