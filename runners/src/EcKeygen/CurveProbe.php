<?php

declare(strict_types=1);

namespace PhpCryptoBench\EcKeygen;

use OpenSSLAsymmetricKey;
use PhpCryptoBench\Exception\KeyOperationFailed;
use PhpCryptoBench\Exception\UnknownCurve;

/**
 * Generates one key per curve name and finds out what it can do: its sizes (from the key), and
 * whether it signs and verifies (ECDSA) and agrees on a secret (ECDH).
 */
final class CurveProbe
{
    private const MESSAGE = 'phpcrypto-bench curve probe';

    public function __construct(private readonly ExplicitParameters $parameters)
    {
    }

    public function probe(string $curve): CurveEntry
    {
        try {
            $classification = CurveClassification::of($curve);
        } catch (UnknownCurve $e) {
            return new CurveEntry($curve, 'unknown', 'unknown', 0, 0, CurveEntry::UNCLASSIFIED, [], $e->getMessage());
        }
        $entry = static fn (int $field, int $order, string $status, array $operations, string $detail): CurveEntry =>
            new CurveEntry($curve, $classification->family, $classification->organization, $field, $order, $status, $operations, $detail);
        try {
            $key = OpensslCurve::newKey($curve);
            $details = openssl_pkey_get_details($key);
            if ($details === false || $details['bits'] <= 0) {
                throw KeyOperationFailed::of($curve, 'reading the new key (openssl_pkey_get_details)', OpensslCurve::errors());
            }
            $orderBits = (int) $details['bits'];
            $fieldBits = $this->parameters->fieldBits($curve, $key);
        } catch (KeyOperationFailed $e) {
            return $entry(0, 0, CurveEntry::UNSUPPORTED, [], $e->getMessage());
        }
        $scheme = new OpensslCurve($curve, $classification, $fieldBits, $orderBits);
        $operations = [];
        $failures = [];
        $signProblem = $this->signProblem($scheme, $key);
        $signProblem === null ? array_push($operations, KeyScheme::SIGN, KeyScheme::VERIFY) : $failures[] = 'ECDSA: ' . $signProblem;
        $deriveProblem = $this->deriveProblem($scheme, $key);
        $deriveProblem === null ? $operations[] = KeyScheme::DERIVE : $failures[] = 'ECDH: ' . $deriveProblem;
        if ($operations === []) {
            return $entry($fieldBits, $orderBits, CurveEntry::UNVERIFIABLE, [], 'keys are generated but cannot be checked, so they are not timed. ' . implode('; ', $failures));
        }
        $detail = sprintf('a %d-bit field, a %d-bit group order', $fieldBits, $orderBits);
        return $entry($fieldBits, $orderBits, CurveEntry::OK, $operations, $failures === [] ? $detail : $detail . '; ' . implode('; ', $failures));
    }

    private function signProblem(OpensslCurve $scheme, OpenSSLAsymmetricKey $key): ?string
    {
        OpensslCurve::errors();
        try {
            $signature = $scheme->sign($key, self::MESSAGE);
            $public = $scheme->publicKey($key);
        } catch (KeyOperationFailed $e) {
            return $e->getMessage();
        }
        if (!$scheme->verify($public, self::MESSAGE, $signature)) {
            return 'a fresh signature does not verify: ' . (OpensslCurve::errors() ?: 'no error text');
        }
        return $scheme->verify($public, self::MESSAGE . '!', $signature) ? 'a signature verifies for another message' : null;
    }

    private function deriveProblem(OpensslCurve $scheme, OpenSSLAsymmetricKey $key): ?string
    {
        OpensslCurve::errors();
        try {
            $peer = $scheme->generate();
            $ours = $scheme->derive($key, $scheme->publicKey($peer));
            $theirs = $scheme->derive($peer, $scheme->publicKey($key));
        } catch (KeyOperationFailed $e) {
            return $e->getMessage();
        }
        return $ours === $theirs ? null : 'the two sides derive different secrets';
    }
}
