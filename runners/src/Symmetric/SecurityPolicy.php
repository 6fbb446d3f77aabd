<?php

declare(strict_types=1);

namespace PhpCryptoBench\Symmetric;

use PhpCryptoBench\Exception\IoError;

/** data/policy/symmetric.yaml: the first rule whose pattern matches a cipher name gives its status. */
final class SecurityPolicy
{
    /**
     * @param list<array{match: string, status: string, reason: string}> $rules
     * @param array{status: string, reason: string} $default
     * @param array<string, array{status: string, reason: string}> $engines
     */
    private function __construct(private readonly array $rules, private readonly array $default, private readonly array $engines)
    {
    }

    public static function load(string $path): self
    {
        if (!function_exists('yaml_parse_file')) {
            throw IoError::cannotRead($path, 'the yaml extension is not loaded (Debian: apt-get install php8.2-yaml)');
        }
        $data = @yaml_parse_file($path);
        if (!is_array($data) || !isset($data['rules'], $data['default'], $data['engines'])) {
            throw IoError::cannotRead($path, 'expected a YAML map with rules, default and engines');
        }
        return new self($data['rules'], $data['default'], $data['engines']);
    }

    /** @return array{status: string, reason: string} */
    public function verdict(string $cipher): array
    {
        foreach ($this->rules as $rule) {
            if (preg_match('/' . str_replace('/', '\/', $rule['match']) . '/', strtolower($cipher)) === 1) {
                return ['status' => $rule['status'], 'reason' => $rule['reason']];
            }
        }
        return ['status' => $this->default['status'], 'reason' => $this->default['reason']];
    }

    /** @return array{status: string, reason: string}|null */
    public function engineVerdict(string $engine): ?array
    {
        $entry = $this->engines[$engine] ?? null;
        return $entry === null ? null : ['status' => $entry['status'], 'reason' => $entry['reason']];
    }
}
