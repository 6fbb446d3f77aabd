<?php

declare(strict_types=1);

namespace PhpCryptoBench\Environment;

use PhpCryptoBench\Io\JsonFile;

/**
 * A machine is what sets the speed (issue 45): the CPU vendor, family/model/stepping (and the
 * microarchitecture where data/schema/shared/machine-identity.json knows it), the core count, the
 * instruction-set features crypto code dispatches on and whether it is virtual. The name is derived
 * from that identity and nothing else: `/etc/machine-id` and the CPU model string are the same on
 * every host of a VM pool that hands out several CPU generations, so they name no machine. A readable
 * part (vendor, product line, microarchitecture, cores) is followed by a short hash of the whole
 * identity, so two hosts that differ in any of its fields never share a name.
 *
 * scripts/phpcb/data/machines.py derives the same name from a manifest; tests/fixtures/machine-names.json
 * pins both to the same answers.
 */
final class MachineIdentity
{
    public const TABLE = __DIR__ . '/../../../data/schema/shared/machine-identity.json';
    public const HASH_CHARS = 6;
    private const LINE_CHARS = 16;

    /** @param list<string> $features the dispatch features present, in the table's order */
    private function __construct(
        public readonly string $vendor,
        public readonly ?int $family,
        public readonly ?int $model,
        public readonly ?int $stepping,
        public readonly ?string $microarchitecture,
        public readonly int $cores,
        public readonly array $features,
        public readonly ?bool $virtual,
        public readonly string $line,
    ) {
    }

    /**
     * @param array<string, bool> $flags every flag of /proc/cpuinfo's first block that the table watches
     */
    public static function of(string $vendorId, string $cpuModel, ?int $family, ?int $model, ?int $stepping, int $cores, array $flags, ?bool $virtual): self
    {
        $table = self::table();
        $vendor = $table['vendors'][$vendorId] ?? self::vendorFromModel($cpuModel);
        $features = array_values(array_filter($table['features'], static fn (string $f): bool => ($flags[$f] ?? false) === true));
        return new self($vendor, $family, $model, $stepping, self::microarchitecture($table, $vendor, $family, $model), $cores, $features, $virtual, self::line($cpuModel, $vendor));
    }

    /** @return list<string> the features a name depends on, in the table's order */
    public static function watchedFeatures(): array
    {
        return self::table()['features'];
    }

    /**
     * amd-epyc-zen5-2c-1a2b3c: readable part, then the hash of every field of the identity. A CPU that
     * reports no family and model also hashes its model string and clock in whole MHz, so two such CPUs
     * do not share a name unless those agree too.
     */
    public function name(string $cpuModel = '', ?float $mhz = null): string
    {
        $known = $this->family !== null && $this->model !== null;
        $architecture = $this->microarchitecture ?? ($known ? sprintf('f%dm%d', $this->family, $this->model) : 'unknown');
        $detail = $known ? '' : sprintf(';recorded=cpu=%s;mhz=%s', $cpuModel, $mhz === null ? '?' : (string) (int) floor($mhz + 0.5));
        $hash = substr(hash('sha256', $this->canonical() . $detail), 0, self::HASH_CHARS);
        return sprintf('%s-%s-%s-%dc-%s', $this->vendor, $this->line, $architecture, $this->cores, $hash);
    }

    /** Every field, in one fixed order: what the name's hash covers. */
    public function canonical(): string
    {
        $show = static fn (int|bool|null $value): string => match (true) {
            $value === null => '?',
            is_bool($value) => $value ? 'true' : 'false',
            default => (string) $value,
        };
        return sprintf(
            'vendor=%s;family=%s;model=%s;stepping=%s;cores=%d;features=%s;virtual=%s',
            $this->vendor,
            $show($this->family),
            $show($this->model),
            $show($this->stepping),
            $this->cores,
            implode(',', $this->features),
            $show($this->virtual),
        );
    }

    /** @return array<string, mixed> the manifest's machine.identity */
    public function toManifest(): array
    {
        return [
            'vendor' => $this->vendor,
            'line' => $this->line,
            'family' => $this->family,
            'model' => $this->model,
            'stepping' => $this->stepping,
            'microarchitecture' => $this->microarchitecture,
            'cores' => $this->cores,
            'features' => $this->features,
        ];
    }

    /** @return array{features: list<string>, vendors: array<string, string>, microarchitectures: list<array{vendor: string, family: int, models: list<array{0: int, 1: int}>, name: string}>} */
    private static function table(): array
    {
        static $table = null;
        return $table ??= JsonFile::read(self::TABLE);
    }

    /** @param array{microarchitectures: list<array{vendor: string, family: int, models: list<array{0: int, 1: int}>, name: string}>} $table */
    private static function microarchitecture(array $table, string $vendor, ?int $family, ?int $model): ?string
    {
        if ($family === null || $model === null) {
            return null;
        }
        foreach ($table['microarchitectures'] as $entry) {
            if ($entry['vendor'] !== $vendor || $entry['family'] !== $family) {
                continue;
            }
            foreach ($entry['models'] as [$from, $to]) {
                if ($model >= $from && $model <= $to) {
                    return $entry['name'];
                }
            }
        }
        return null;
    }

    /** A CPU that records no vendor id (or an unknown one) is named by its model string's first word. */
    private static function vendorFromModel(string $cpuModel): string
    {
        $words = explode('-', MachineName::cpuSlug($cpuModel));
        return $words[0];
    }

    /** The product line: the model string's first word after the vendor's (EPYC, Xeon, Ryzen). */
    private static function line(string $cpuModel, string $vendor): string
    {
        foreach (explode('-', MachineName::cpuSlug($cpuModel)) as $word) {
            if ($word !== $vendor && preg_match('/^[a-z][a-z0-9]*$/', $word) === 1 && !preg_match('/^\d|ghz$/', $word)) {
                return substr($word, 0, self::LINE_CHARS);
            }
        }
        return 'cpu';
    }
}
