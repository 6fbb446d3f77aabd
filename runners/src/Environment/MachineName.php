<?php

declare(strict_types=1);

namespace PhpCryptoBench\Environment;

/**
 * The machine a run records: its name, derived from the CPU's identity alone (MachineIdentity: runs
 * group by what sets the speed), and the host it ran on as a level inside the machine, like a boot.
 *
 * The host is /etc/machine-id (systemd: unique per installation), else the hostname; PHPCB_HOST_ID
 * overrides it where neither is stable, e.g. one per CI runner image. Only its hash is recorded: the
 * id itself stays on the machine. On a VM pool every host may share one machine-id, and one
 * machine-id may land on CPUs of several generations: that is why it names no machine.
 */
final class MachineName
{
    public const HASH_CHARS = 6;
    private const CPU_SLUG_CHARS = 32;
    /** Words that name no particular CPU; dropped so the slug keeps what tells two CPUs apart. */
    private const NOISE = ['(r)', '(tm)', 'processor', 'cpu', 'with', 'radeon', 'graphics'];

    private function __construct(
        public readonly string $name,
        public readonly string $hostHash,
        public readonly MachineIdentity $identity,
    ) {
    }

    /** $cpuModel and $mhz name a CPU that reports no family and model (MachineIdentity::name). */
    public static function of(MachineIdentity $identity, string $hostIdentity, string $cpuModel = '', ?float $mhz = null): self
    {
        return new self($identity->name($cpuModel, $mhz), substr(hash('sha256', $hostIdentity), 0, self::HASH_CHARS), $identity);
    }

    public static function cpuSlug(string $cpuModel): string
    {
        $words = str_replace(self::NOISE, ' ', strtolower($cpuModel));
        $slug = trim((string) preg_replace('/[^a-z0-9]+/', '-', $words), '-');
        $slug = rtrim(substr($slug, 0, self::CPU_SLUG_CHARS), '-');
        return $slug === '' ? 'cpu' : $slug;
    }

    /** @return array{name: string, host_hash: string, identity: array<string, mixed>, identity_source: string} */
    public function toManifest(): array
    {
        // A CPU that reports no family and model (an ARM host) has no identity beyond its features: unknown.
        $source = $this->identity->family !== null && $this->identity->model !== null ? 'recorded' : 'unknown';
        return ['name' => $this->name, 'host_hash' => $this->hostHash, 'identity' => $this->identity->toManifest(), 'identity_source' => $source];
    }
}
