<?php

declare(strict_types=1);

namespace PhpCryptoBench\Native;

/**
 * Reads `openssl speed -mr` (machine-readable) output. Each result line `+R…:<count>:…:<seconds>`
 * follows the line that announces what it measured: `+DT:<name>:<seconds>:<bytes>` for ciphers
 * and MACs, `+DTP:<bits>:<what>:<type>:<seconds>` for public-key operations, and (OpenSSL 3.5's ML-DSA
 * and ML-KEM) `+DTP:<name>:<operation>:<seconds>`, where `signs` is a signature and `keygen`, `encaps`
 * and `decaps` a KEM's operations. The announcement, not
 * the number after +R, names the operation: those numbers differ between OpenSSL versions (3.2 added
 * RSA encryption and key encapsulation between them). Anything else (+F summaries, +H, errors,
 * human-readable text) is skipped.
 *
 * OpenSSL 3.5 measures RSA twice: in its classic section (+DTP:2048:private:rsa sign) and again
 * through the signature and KEM interfaces (+DTP:rsa2048:signs, +DTP:rsa2048:verify). An operation the
 * classic section measured is read from it, as OpenSSL 3.0 reports it, so that the two stacks' native
 * limits are the same measurement; the named form counts only where the classic one is absent (ML-DSA).
 */
final class OpensslSpeedOutput
{
    /**
     * @return list<array{operation: string, count: int, seconds: float}> in the order measured
     */
    public static function results(string $output, NativePrimitive $primitive): array
    {
        $results = [];
        $named = [];
        $announced = null;
        foreach (preg_split('/\R/', $output) ?: [] as $line) {
            $line = trim($line);
            if (str_starts_with($line, '+DT:') || str_starts_with($line, '+DTP:')) {
                $announced = explode(':', $line);
                continue;
            }
            if (preg_match('/^\+R[0-9]*:([0-9]+):.*:([0-9]+(?:\.[0-9]+)?)$/', $line, $match) !== 1 || $announced === null) {
                continue;
            }
            $operation = self::operation($announced, $primitive);
            $classic = $announced[0] === '+DT' || count($announced) >= 5;
            $announced = null;
            [$count, $seconds] = [(int) $match[1], (float) $match[2]];
            if ($operation === null || $count <= 0 || $seconds <= 0.0) {
                continue;
            }
            $result = ['operation' => $operation, 'count' => $count, 'seconds' => $seconds];
            if ($classic) {
                $results[] = $result;
            } else {
                $named[] = $result;
            }
        }
        $measured = array_column($results, 'operation');
        foreach ($named as $result) {
            if (!in_array($result['operation'], $measured, true)) {
                $results[] = $result;
            }
        }
        return $results;
    }

    /** @param list<string> $announced the fields of the +DT or +DTP line */
    private static function operation(array $announced, NativePrimitive $primitive): ?string
    {
        if ($announced[0] === '+DT') {
            return $primitive->onBlocks() ? $primitive->operations[0] : null;
        }
        $what = strtolower(($announced[2] ?? '') . ' ' . ($announced[3] ?? ''));
        // A KEM's operations (OpenSSL 3.5 announces ML-KEM's as +DTP:ML-KEM-768:encaps:<seconds>) count
        // where the primitive asks for them; a signature algorithm's key generation never does.
        if (preg_match('/\b(keygen|encaps|decaps)\b/', $what, $kem) === 1) {
            return in_array($kem[1], $primitive->operations, true) ? $kem[1] : null;
        }
        return match (true) {
            preg_match('/encrypt|decrypt/', $what) === 1 => null,
            str_contains($what, 'ecdh') => NativePrimitive::DERIVE,
            str_contains($what, 'verify'), str_starts_with($what, 'public ') => NativePrimitive::VERIFY,
            str_contains($what, 'sign'), str_starts_with($what, 'private ') => NativePrimitive::SIGN,
            default => null,
        };
    }
}
