<?php

declare(strict_types=1);

namespace PhpCryptoBench\Native;

use PhpCryptoBench\Exception\NativeSpeedFailed;

/** The native limit: what OpenSSL's own tool reaches for the same primitive on this machine. */
interface NativeSpeed
{
    /** Bytes per second, or null when the tool cannot measure this algorithm. */
    public function bytesPerSecond(string $algorithm, int $blockBytes): ?float;

    /**
     * One short measurement of each operation of $primitive (a round of an interleaved comparison).
     *
     * @return list<NativeMeasurement> one per operation of the primitive, in its order
     * @throws NativeSpeedFailed when the tool gives no figure for one of them
     */
    public function measure(NativePrimitive $primitive): array;

    public function toolVersion(): string;
}
