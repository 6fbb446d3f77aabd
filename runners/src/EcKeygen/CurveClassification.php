<?php

declare(strict_types=1);

namespace PhpCryptoBench\EcKeygen;

use PhpCryptoBench\Exception\UnknownCurve;

/**
 * Which family a curve name belongs to and which body standardised it (seed 003, table 2).
 * The name says who published a curve; its size is read from the key, never from the name.
 */
final class CurveClassification
{
    /** Name prefix => [family, organization]; the longest matching prefix wins. */
    private const PREFIXES = [
        'brainpoolP' => ['brainpool', 'Brainpool'],
        'prime' => ['prime', 'ANSI X9.62'],
        'c2pnb' => ['c2pnb', 'ANSI X9.62'],
        'c2tnb' => ['c2tnb', 'ANSI X9.62'],
        'secp' => ['secp', 'SECG'],
        'sect' => ['sect', 'SECG'],
        'wap-wsg-idm-ecid-wtls' => ['wap', 'WAP Forum (WTLS)'],
        'Oakley-EC2N-' => ['oakley', 'IETF (RFC 2409 Oakley)'],
        'SM2' => ['sm2', 'OSCCA (China)'],
    ];

    private function __construct(
        public readonly string $family,
        public readonly string $organization,
    ) {
    }

    /** @throws UnknownCurve */
    public static function of(string $curve): self
    {
        $best = null;
        foreach (self::PREFIXES as $prefix => $classification) {
            if (str_starts_with($curve, $prefix) && ($best === null || strlen($prefix) > strlen($best))) {
                $best = $prefix;
            }
        }
        if ($best === null) {
            throw UnknownCurve::notClassified($curve, array_keys(self::PREFIXES));
        }
        return new self(...self::PREFIXES[$best]);
    }
}
