<?php

declare(strict_types=1);

namespace PhpCryptoBench\EcKeygen;

/** One name from openssl_get_curve_names(), and what its keys can do in PHP today. */
final class CurveEntry
{
    public const OK = 'ok';
    public const UNSUPPORTED = 'unsupported';
    public const UNVERIFIABLE = 'unverifiable';
    public const UNCLASSIFIED = 'unclassified';

    /** @param list<string> $operations what works besides keygen: sign, verify, derive */
    public function __construct(
        public readonly string $curve,
        public readonly string $family,
        public readonly string $organization,
        public readonly int $fieldBits,
        public readonly int $orderBits,
        public readonly string $status,
        public readonly array $operations,
        public readonly string $detail,
    ) {
    }

    /** Measured only when its keys can be checked: they sign and verify, or agree on a secret. */
    public function scheme(): ?OpensslCurve
    {
        if ($this->status !== self::OK) {
            return null;
        }
        return new OpensslCurve(
            $this->curve,
            CurveClassification::of($this->curve),
            $this->fieldBits,
            $this->orderBits,
            in_array(KeyScheme::SIGN, $this->operations, true),
            in_array(KeyScheme::DERIVE, $this->operations, true),
        );
    }

    /** @return array<string, int|string> */
    public function toRow(): array
    {
        return [
            'curve' => $this->curve,
            'family' => $this->family,
            'organization' => $this->organization,
            'field_bits' => $this->fieldBits,
            'key_bits' => $this->orderBits,
            'security_bits' => $this->orderBits > 0 ? SecurityLevel::forEcc($this->orderBits) : 0,
            'status' => $this->status,
            'operations' => in_array($this->status, [self::OK, self::UNVERIFIABLE], true) ? implode(' ', [KeyScheme::KEYGEN, ...$this->operations]) : '',
            'detail' => $this->detail,
        ];
    }
}
