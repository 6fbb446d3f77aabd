<?php

declare(strict_types=1);

namespace PhpCryptoBench\Pitfalls;

use PhpCryptoBench\Exception\VerificationFailed;
use PhpCryptoBench\Native\NativePrimitive;

/**
 * One way PHP code loses time, measured as an A/B: the slow way and the fast way to the same,
 * checked result. agreement() proves, before anything is timed, that both give that result.
 */
interface Pitfall
{
    /** The `pitfall` column, e.g. pem-vs-object-rsa2048. */
    public function name(): string;

    /** @return array{0: PitfallCase, 1: PitfallCase} the slow way, then the fast way */
    public function variants(): array;

    /**
     * What both variants were checked to agree on, for the manifest.
     *
     * @throws VerificationFailed when they do not
     */
    public function agreement(): string;

    /** The native counterpart, when `openssl speed` measures the same work; null otherwise. */
    public function native(): ?NativePrimitive;
}
