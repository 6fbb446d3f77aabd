<?php

declare(strict_types=1);

namespace PhpCryptoBench\Tests\Support;

use PhpCryptoBench\Argon2\Argon2Cell;
use PhpCryptoBench\Argon2\CellHasher;
use Throwable;

/** A hasher whose hashes and verdicts are given in advance: hash N is "hash-N", verify answers in turn. */
final class ScriptedHasher implements CellHasher
{
    public int $hashes = 0;

    /** @param list<bool|null> $verdicts */
    public function __construct(private array $verdicts = [], private readonly ?Throwable $failure = null)
    {
    }

    public function hash(Argon2Cell $cell): string
    {
        if ($this->failure !== null) {
            throw $this->failure;
        }
        return 'hash-' . $this->hashes++;
    }

    public function verify(Argon2Cell $cell, string $hash): ?bool
    {
        return $this->verdicts === [] ? true : array_shift($this->verdicts);
    }
}
