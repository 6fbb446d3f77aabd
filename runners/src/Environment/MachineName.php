<?php

declare(strict_types=1);

namespace PhpCryptoBench\Environment;

/**
 * The name a run gives the machine that measured it: a slug of the CPU model plus a short hash of
 * the host's identity (e.g. intel-xeon-2-50ghz-3f9a1c), so that runs group by machine and two
 * machines with the same CPU never share a name.
 *
 * The host identity is /etc/machine-id (systemd: unique per installation), else the hostname;
 * PHPCB_HOST_ID overrides it where neither is stable, e.g. one name per CI runner image. Only the
 * hash is recorded: the identity itself stays on the machine.
 */
final class MachineName
{
    public const HASH_CHARS = 6;
    private const CPU_SLUG_CHARS = 32;
    /** Words that name no particular CPU; dropped so the slug keeps what tells two CPUs apart. */
    private const NOISE = ['(r)', '(tm)', 'processor', 'cpu', 'with', 'radeon', 'graphics'];

    private function __construct(public readonly string $name, public readonly string $hostHash)
    {
    }

    public static function of(string $cpuModel, string $hostIdentity): self
    {
        $hash = substr(hash('sha256', $hostIdentity), 0, self::HASH_CHARS);
        return new self(self::cpuSlug($cpuModel) . '-' . $hash, $hash);
    }

    public static function cpuSlug(string $cpuModel): string
    {
        $words = str_replace(self::NOISE, ' ', strtolower($cpuModel));
        $slug = trim((string) preg_replace('/[^a-z0-9]+/', '-', $words), '-');
        $slug = rtrim(substr($slug, 0, self::CPU_SLUG_CHARS), '-');
        return $slug === '' ? 'cpu' : $slug;
    }

    /** @return array{name: string, host_hash: string} */
    public function toManifest(): array
    {
        return ['name' => $this->name, 'host_hash' => $this->hostHash];
    }
}
