<?php

declare(strict_types=1);

namespace PhpCryptoBench\Environment;

/**
 * Everything about this machine and PHP build that changes the numbers, as manifest fields.
 *
 * Under the fake clock (forFakeClock) the core count is pinned at FAKE_CLOCK_CORES, whatever the
 * machine has: the run's data depends on it (Argon2 marks the cells with more threads than cores,
 * and the experiments get the manifest's count through ExperimentContext::$cores), and a fake run
 * must write the same bytes on every machine. Everything else is still this machine's.
 */
final class EnvironmentProbe
{
    public const FAKE_CLOCK_CORES = 2;
    /** CPU flags that decide which code paths OpenSSL and libsodium take. */
    public const WATCHED_CPU_FLAGS = ['aes', 'pclmulqdq', 'avx', 'avx2', 'avx512f', 'vaes', 'vpclmulqdq', 'sha_ni'];
    /** The fake clock's boot: one id, an uptime of an hour, so that a fake run writes the same bytes. */
    public const FAKE_BOOT = ['id' => '00000000-0000-4000-8000-000000000000', 'uptime_s' => 3600];
    /**
     * The commit a launcher passes when the runner cannot ask git itself: a stack's root filesystem
     * has no git, and the checkout it mounts belongs to another user.
     */
    public const COMMIT_VARIABLE = 'PHPCB_GIT_COMMIT';

    /** @param int|null $fixedCores the core count to record instead of this machine's (the fake clock's 2) */
    public function __construct(
        private readonly string $cpuinfoPath = '/proc/cpuinfo',
        private readonly string $meminfoPath = '/proc/meminfo',
        private readonly string $osReleasePath = '/etc/os-release',
        private readonly ?int $fixedCores = null,
        private readonly string $machineIdPath = '/etc/machine-id',
        private readonly string $bootIdPath = '/proc/sys/kernel/random/boot_id',
        private readonly string $uptimePath = '/proc/uptime',
        private readonly bool $fixedBoot = false,
        private readonly string $hostOsReleasePath = Stack::HOST_OS_RELEASE,
    ) {
    }

    public static function forFakeClock(): self
    {
        return new self(fixedCores: self::FAKE_CLOCK_CORES, fixedBoot: true);
    }

    /** @return array<string, mixed> */
    public function php(): array
    {
        $extensions = [];
        foreach (['openssl', 'sodium', 'mcrypt', 'hash', 'Zend OPcache'] as $extension) {
            $version = phpversion($extension);
            $extensions[$extension] = $version === false ? null : $version;
        }
        return [
            'version' => PHP_VERSION,
            'sapi' => PHP_SAPI,
            'opcache_cli' => filter_var(ini_get('opcache.enable_cli'), FILTER_VALIDATE_BOOLEAN) && extension_loaded('Zend OPcache'),
            'jit' => (string) (ini_get('opcache.jit') ?: 'off') . ' buffer=' . (string) (ini_get('opcache.jit_buffer_size') ?: '0'),
            'memory_limit' => (string) ini_get('memory_limit'),
            'gc_enabled' => gc_enabled(),
            'extensions' => $extensions,
        ];
    }

    /**
     * What a process that measures records of itself (the manifest's per-experiment `measured_by`):
     * which process it was, its PHP and its libraries, as the run records them for the runner.
     *
     * @param 'runner'|'child'|'argon2-cell' $process
     * @return array{process: string, php: array<string, mixed>, libraries: array<string, mixed>}
     */
    public function process(string $process): array
    {
        return ['process' => $process, 'php' => $this->php(), 'libraries' => $this->libraries()];
    }

    /**
     * Where the process that measured differs from the one the run records, on what changes the
     * numbers or what can be measured: PHP version, opcache, JIT, memory_limit, GC, every extension,
     * and the libraries. Not the OpenSSL legacy provider: an experiment's declared OPENSSL_CONF
     * changes it on purpose (its `settings.environment` says so).
     *
     * @param array<string, mixed> $recorded the run's `php` and `libraries`
     * @param array<string, mixed> $measuring a `measured_by`
     * @return list<string> one "field: runner X, measuring process Y" per difference
     */
    public static function differences(array $recorded, array $measuring): array
    {
        $flatten = static function (array $environment): array {
            $php = (array) ($environment['php'] ?? []);
            $extensions = (array) ($php['extensions'] ?? []);
            unset($php['extensions'], $php['sapi']);
            $libraries = (array) ($environment['libraries'] ?? []);
            unset($libraries['openssl_legacy_provider']);
            $fields = [];
            foreach ($php as $key => $value) {
                $fields["php.$key"] = $value;
            }
            foreach ($extensions as $key => $value) {
                $fields["php.extensions.$key"] = $value;
            }
            foreach ($libraries as $key => $value) {
                $fields["libraries.$key"] = $value;
            }
            return $fields;
        };
        $show = static fn (mixed $value): string => $value === null ? 'absent' : var_export($value, true);
        $a = $flatten($recorded);
        $b = $flatten($measuring);
        $differences = [];
        foreach (array_unique([...array_keys($a), ...array_keys($b)]) as $field) {
            if (($a[$field] ?? null) !== ($b[$field] ?? null)) {
                $differences[] = sprintf('%s: runner %s, measuring process %s', $field, $show($a[$field] ?? null), $show($b[$field] ?? null));
            }
        }
        return $differences;
    }

    /** @return array<string, mixed> */
    public function libraries(): array
    {
        return [
            // The header PHP was compiled against: the library it loads may be another release.
            'openssl' => defined('OPENSSL_VERSION_TEXT') ? OPENSSL_VERSION_TEXT : null,
            'openssl_library' => extension_loaded('openssl') ? ModuleInfo::value('OpenSSL Library Version') : null,
            'sodium' => defined('SODIUM_LIBRARY_VERSION') ? SODIUM_LIBRARY_VERSION : null,
            'sodium_library' => extension_loaded('sodium') ? ModuleInfo::value('libsodium library version') : null,
            'mcrypt' => $this->libmcryptVersion(),
            'argon2_provider' => defined('PASSWORD_ARGON2_PROVIDER') ? PASSWORD_ARGON2_PROVIDER : null,
            'openssl_legacy_provider' => extension_loaded('openssl') && in_array('bf-cbc', openssl_get_cipher_methods(), true),
        ];
    }

    /** ext-mcrypt reports libmcrypt's version only through phpinfo(). */
    private function libmcryptVersion(): ?string
    {
        if (!extension_loaded('mcrypt')) {
            return null;
        }
        return ModuleInfo::value('Library version', 'mcrypt support') ?? 'unknown';
    }

    /**
     * The stack the runner runs on (Stack): its name from PHPCB_STACK, the root's OS release, PHP,
     * the OpenSSL library PHP loaded, and the library of the `openssl` command that measures the
     * native limit ($opensslCli: its `openssl version` line).
     *
     * @return array<string, string|null>
     */
    public function stack(string $opensslCli): array
    {
        $hostOs = is_readable($this->hostOsReleasePath) ? self::prettyName((string) @file_get_contents($this->hostOsReleasePath)) : null;
        $library = $this->libraries()['openssl_library'] ?? null;
        return Stack::of(Stack::nameFromEnvironment(), $this->os(), $hostOs ?? $this->os(), PHP_VERSION, is_string($library) ? $library : null, $opensslCli)->toManifest();
    }

    /**
     * This boot of the machine (the kernel's random boot id, new at every boot) and how long it has
     * been up: a VM's next boot may land on another host, so runs group by boot as well as by machine.
     *
     * @return array{id: string|null, uptime_s: int|null}
     */
    public function boot(): array
    {
        if ($this->fixedBoot) {
            return self::FAKE_BOOT;
        }
        $id = trim((string) @file_get_contents($this->bootIdPath));
        $uptime = (string) @file_get_contents($this->uptimePath);
        return [
            'id' => preg_match('/^[0-9a-f-]{36}$/', $id) === 1 ? $id : null,
            'uptime_s' => preg_match('/^(\d+)/', $uptime, $m) === 1 ? (int) $m[1] : null,
        ];
    }

    /** @return array{model: string, cores: int, flags: array<string, bool>, mhz: float|null, identity: array{vendor_id: string|null, family: int|null, model: int|null, stepping: int|null, microcode: string|null, cache: string|null, bogomips: float|null, flags_sha256: string}} */
    public function cpu(): array
    {
        $cpuinfo = (string) @file_get_contents($this->cpuinfoPath);
        $model = preg_match('/^model name\s*:\s*(.+)$/m', $cpuinfo, $m) === 1 ? trim($m[1]) : php_uname('m');
        $cores = preg_match_all('/^processor\s*:/m', $cpuinfo);
        $present = preg_match('/^flags\s*:\s*(.+)$/m', $cpuinfo, $f) === 1 ? preg_split('/\s+/', trim($f[1])) : [];
        $flags = [];
        foreach (self::WATCHED_CPU_FLAGS as $flag) {
            $flags[$flag] = in_array($flag, (array) $present, true);
        }
        // What the OS reports: on a virtual machine, often the host's nominal clock, not the current one.
        $mhz = preg_match('/^cpu MHz\s*:\s*([0-9.]+)$/m', $cpuinfo, $hz) === 1 ? round((float) $hz[1], 1) : null;
        return ['model' => $model, 'cores' => $this->fixedCores ?? max(1, (int) $cores), 'flags' => $flags, 'mhz' => $mhz, 'identity' => self::cpuIdentity($cpuinfo, (array) $present)];
    }

    /**
     * What tells two hosts with the same CPU model string apart ("AMD EPYC" names several generations
     * on this cloud): family, model and stepping, microcode, cache, the clock the kernel calibrated
     * (bogomips) and a digest of every flag, from the first CPU's block.
     *
     * @param list<string> $flags
     * @return array{vendor_id: string|null, family: int|null, model: int|null, stepping: int|null, microcode: string|null, cache: string|null, bogomips: float|null, flags_sha256: string}
     */
    private static function cpuIdentity(string $cpuinfo, array $flags): array
    {
        $field = static fn (string $name): ?string => preg_match('/^' . $name . '\s*:\s*(.+)$/m', $cpuinfo, $m) === 1 ? trim($m[1]) : null;
        $integer = static fn (?string $value): ?int => $value !== null && preg_match('/^\d+$/', $value) === 1 ? (int) $value : null;
        $sorted = $flags;
        sort($sorted);
        return [
            'vendor_id' => $field('vendor_id'),
            'family' => $integer($field('cpu family')),
            'model' => $integer($field('model')),
            'stepping' => $integer($field('stepping')),
            'microcode' => $field('microcode'),
            'cache' => $field('cache size'),
            'bogomips' => is_numeric($field('bogomips')) ? (float) $field('bogomips') : null,
            'flags_sha256' => hash('sha256', implode(' ', $sorted)),
        ];
    }

    /**
     * Whether this is a virtual machine (the CPU's `hypervisor` flag): its host, and so its CPU and
     * speed, may change between runs while the host identity stays the same.
     */
    public function isVirtual(): bool
    {
        $cpuinfo = (string) @file_get_contents($this->cpuinfoPath);
        return preg_match('/^flags\s*:.*\bhypervisor\b/m', $cpuinfo) === 1;
    }

    /** The kernel's build string (`uname -v`): two builds of one release can differ in what matters here. */
    public function kernelBuild(): string
    {
        return php_uname('v');
    }

    public function memoryBytes(): int
    {
        $meminfo = (string) @file_get_contents($this->meminfoPath);
        return preg_match('/^MemTotal:\s*(\d+)\s*kB/m', $meminfo, $m) === 1 ? (int) $m[1] * 1024 : 0;
    }

    public function os(): string
    {
        return self::prettyName((string) @file_get_contents($this->osReleasePath)) ?? PHP_OS_FAMILY;
    }

    private static function prettyName(string $osRelease): ?string
    {
        return preg_match('/^PRETTY_NAME="?([^"\n]+)"?$/m', $osRelease, $m) === 1 ? $m[1] : null;
    }

    public function kernel(): string
    {
        return php_uname('s') . ' ' . php_uname('r');
    }

    public function gitCommit(string $repository): ?string
    {
        $given = getenv(self::COMMIT_VARIABLE);
        if (is_string($given) && preg_match('/^[0-9a-f]{40}$/', $given) === 1) {
            return $given;
        }
        $head = @shell_exec('git -C ' . escapeshellarg($repository) . ' rev-parse HEAD 2>/dev/null');
        $commit = is_string($head) ? trim($head) : '';
        return preg_match('/^[0-9a-f]{40}$/', $commit) === 1 ? $commit : null;
    }

    public function machine(): MachineName
    {
        $cpu = $this->cpu();
        $identity = $cpu['identity'];
        $cpuinfo = (string) @file_get_contents($this->cpuinfoPath);
        $present = preg_match('/^flags\s*:\s*(.+)$/m', $cpuinfo, $f) === 1 ? preg_split('/\s+/', trim($f[1])) : [];
        $flags = array_fill_keys(array_intersect(MachineIdentity::watchedFeatures(), (array) $present), true);
        return MachineName::of(
            MachineIdentity::of((string) $identity['vendor_id'], $cpu['model'], $identity['family'], $identity['model'], $identity['stepping'], $cpu['cores'], $flags, $this->isVirtual()),
            $this->hostIdentity(),
            $cpu['model'],
            $cpu['mhz'],
        );
    }

    /** The host, a level inside the machine (MachineName): not part of the machine's name. */
    private function hostIdentity(): string
    {
        $override = getenv('PHPCB_HOST_ID');
        if (is_string($override) && trim($override) !== '') {
            return 'override:' . trim($override);
        }
        $machineId = trim((string) @file_get_contents($this->machineIdPath));
        if ($machineId !== '') {
            return 'machine-id:' . $machineId;
        }
        return 'hostname:' . (string) gethostname();
    }
}
