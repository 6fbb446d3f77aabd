<?php

declare(strict_types=1);

namespace PhpCryptoBench\Run;

use PhpCryptoBench\Exception\IoError;
use PhpCryptoBench\Io\AtomicFile;
use PhpCryptoBench\Io\JsonFile;

/** manifest.json: what ran, where, with which libraries, and how each experiment ended. */
final class Manifest
{
    /** The data contract's version; data/schema/manifest.schema.json declares the same (a test checks). */
    public const SCHEMA_VERSION = 9;
    public const FILE = 'manifest.json';

    /** @param array<string, mixed> $data */
    private function __construct(private array $data)
    {
    }

    /** @param array<string, mixed> $fields everything but schema_version and experiments */
    public static function start(array $fields): self
    {
        return new self(['schema_version' => self::SCHEMA_VERSION] + $fields + ['finished_utc' => null, 'experiments' => []]);
    }

    public static function load(string $directory): self
    {
        $path = $directory . '/' . self::FILE;
        if (!is_file($path)) {
            throw IoError::notAResumableRun($directory);
        }
        $data = JsonFile::readForRewrite($path);
        $version = $data['schema_version'] ?? null;
        if ($version !== self::SCHEMA_VERSION) {
            // Experiments added now would be written under another contract than the ones already there.
            throw IoError::otherSchemaVersion($directory, $version, self::SCHEMA_VERSION);
        }
        // The experiments map is edited as an array; inside the entries, empty objects stay objects.
        $data['experiments'] = (array) ($data['experiments'] ?? []);
        return new self($data);
    }

    public function runId(): string
    {
        return (string) $this->data['run_id'];
    }

    public function profile(): string
    {
        return (string) $this->data['profile'];
    }

    /** The core count the run records (cpu.cores): what "more threads than cores" is measured against. */
    public function cores(): int
    {
        return max(1, (int) ($this->data['cpu']['cores'] ?? 1));
    }

    public function hasExperiment(string $name): bool
    {
        return isset($this->data['experiments'][$name]);
    }

    /** @param array<string, mixed> $outcome */
    public function recordExperiment(string $name, array $outcome): void
    {
        $this->data['experiments'][$name] = $outcome;
    }

    /** @param array<string, mixed> $system the machine's load as the run ends (SystemLoad::snapshot) */
    public function finish(string $finishedUtc, array $system): void
    {
        $this->data['finished_utc'] = $finishedUtc;
        $this->data['system']['after'] = $system;
    }

    /** @return list<string> every file the experiments list, in their order */
    public function files(): array
    {
        $files = [];
        foreach ($this->data['experiments'] as $entry) {
            foreach ((array) ($entry['files'] ?? []) as $file) {
                $files[] = (string) $file;
            }
        }
        return array_values(array_unique($files));
    }

    /**
     * The run's seal (RunSeal): each file's row count and SHA-256, and the SHA-256 of the manifest's own
     * bytes before its last member, the seal (RunSeal::manifestDigest), recorded once the run is
     * finished, so that the build refuses a run whose files or manifest changed afterwards.
     *
     * @param array<string, array{rows: int, sha256: string}> $files
     */
    public function seal(array $files): void
    {
        unset($this->data['seal']);
        $this->data['seal'] = ['files' => (object) $files, 'manifest_sha256' => RunSeal::manifestDigest($this->json($this->data))];
    }

    /** @return array<string, mixed> */
    public function toArray(): array
    {
        return $this->data;
    }

    public function save(string $directory): void
    {
        AtomicFile::write($directory . '/' . self::FILE, $this->json($this->data) . "\n");
    }

    /** @param array<string, mixed> $data */
    private function json(array $data): string
    {
        // An object even when empty: the schema declares a map of experiments.
        $data['experiments'] = (object) $data['experiments'];
        return json_encode($data, JSON_PRETTY_PRINT | JSON_UNESCAPED_SLASHES | JSON_THROW_ON_ERROR | JSON_PRESERVE_ZERO_FRACTION);
    }
}
