<?php

declare(strict_types=1);

namespace PhpCryptoBench\Aead;

use PhpCryptoBench\Harness\BenchCase;

/** An EncryptCase as the aead table times it, keyed like its BareEncryptLoop so the two form one group. */
final class HarnessCase implements BenchCase
{
    public function __construct(private readonly EncryptCase $case)
    {
    }

    public function key(): array
    {
        $key = $this->case->key();
        return ['algorithm' => $key['algorithm'], 'payload_bytes' => $key['payload_bytes'], 'loop' => 'harness'];
    }

    public function label(): string
    {
        return $this->case->label() . ', through the harness';
    }

    public function bytesPerIteration(): int
    {
        return $this->case->bytesPerIteration();
    }

    public function run(int $iterations): void
    {
        $this->case->run($iterations);
    }

    public function verifyLastRun(): void
    {
        $this->case->verifyLastRun();
    }
}
