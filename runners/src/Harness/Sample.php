<?php

declare(strict_types=1);

namespace PhpCryptoBench\Harness;

final class Sample
{
    public function __construct(
        public readonly int $index,
        public readonly int $iterations,
        public readonly int $elapsedNs,
    ) {
    }
}
