<?php

declare(strict_types=1);

namespace PhpCryptoBench\Jwt;

use PhpCryptoBench\EcKeygen\EcKeygenExperiment;
use PhpCryptoBench\EcKeygen\KeyScheme;
use PhpCryptoBench\Harness\Profile;
use PhpCryptoBench\Io\CsvTable;
use PhpCryptoBench\Io\TableSchema;
use PhpCryptoBench\Jws\Algorithms;
use PhpCryptoBench\Run\Manifest;

/**
 * The kinds of key whose generation the run's curves experiment (ec_keygen) times. The JWT page quotes
 * that measurement in place of its own (one quantity, one number), so the JWT experiment does not time
 * the same openssl_pkey_new() or sodium call again. An HMAC secret is never among them.
 */
final class CurvesPageKeygen
{
    private const EXPERIMENT = 'ec_keygen';

    /** @var list<string> */
    private readonly array $schemes;

    /** @param list<string> $timed as ec_keygen.csv's `curve` column names them: RSA-2048, prime256v1, Ed25519 */
    private function __construct(array $timed)
    {
        $this->schemes = array_values(array_intersect(self::jwtKeySchemes(), $timed));
    }

    public static function none(): self
    {
        return new self([]);
    }

    /**
     * What the run in $directory holds: the schemes with `keygen` rows in ec_keygen.csv, read only when
     * the manifest lists that file under an ec_keygen entry that measured (ok or partial): a failed
     * entry's files are not the run's. None in a run without one (`--only jwt`, or jwt listed first).
     */
    public static function measuredIn(string $directory, TableSchema $schema): self
    {
        $entry = is_file($directory . '/' . Manifest::FILE) ? (Manifest::load($directory)->toArray()['experiments'][self::EXPERIMENT] ?? null) : null;
        $measured = is_array($entry) && in_array($entry['status'] ?? null, ['ok', 'partial'], true);
        if (!$measured || !in_array(EcKeygenExperiment::CSV, (array) ($entry['files'] ?? []), true)) {
            return self::none();
        }
        $rows = CsvTable::read($directory . '/' . EcKeygenExperiment::CSV, $schema->columns(EcKeygenExperiment::CSV));
        $keygen = array_filter($rows, static fn (array $row): bool => $row['operation'] === KeyScheme::KEYGEN);
        return new self(array_column($keygen, 'curve'));
    }

    /**
     * The projection, before ec_keygen has measured: when it runs before the JWT experiment, it times
     * the JWT keys' curves where OpenSSL lists them, the profile's RSA sizes and Ed25519.
     *
     * @param list<string> $experiments those the run measures before the JWT experiment
     */
    public static function expected(array $experiments, Profile $profile): self
    {
        if (!in_array(self::EXPERIMENT, $experiments, true)) {
            return self::none();
        }
        return new self([...openssl_get_curve_names(), ...array_map(static fn (int $bits): string => 'RSA-' . $bits, EcKeygenExperiment::RSA_BITS[$profile->name] ?? []), 'Ed25519']);
    }

    public function covers(JwtScheme $scheme): bool
    {
        return in_array($scheme->keyScheme(), $this->schemes, true);
    }

    /** @return list<string> the JWT keys' kinds this covers, in the algorithms' order */
    public function schemes(): array
    {
        return $this->schemes;
    }

    /** @return list<string> the kinds of key the JWT algorithms sign with, HMAC secrets aside */
    private static function jwtKeySchemes(): array
    {
        $schemes = array_map(static fn (string $alg): ?string => JwtScheme::named($alg)->keyScheme(), Algorithms::NAMES);
        return array_values(array_unique(array_filter($schemes, static fn (?string $name): bool => $name !== null)));
    }
}
