<?php

declare(strict_types=1);

namespace PhpCryptoBench\Pq;

use PhpCryptoBench\Exception\AlgorithmNotAllowed;
use PhpCryptoBench\Exception\MalformedToken;
use PhpCryptoBench\Exception\SignatureRejected;
use PhpCryptoBench\Exception\VerificationFailed;
use PhpCryptoBench\Jws\Base64Url;

/**
 * An ML-DSA token, tampered with one way at a time, must be refused: a bit of its signature flipped,
 * a bit of its payload flipped, its signature cut short, its header naming another parameter set, and
 * the token checked against another key of the same parameter set.
 */
final class Tampering
{
    /**
     * @return list<string> what was refused, one line each
     * @throws VerificationFailed when a tampered token verifies
     */
    public static function refusals(KeyPair $keys, string $token, KeyPair $other): array
    {
        $scheme = $keys->scheme;
        [$header, $payload, $signature] = explode('.', $token);
        $bytes = Base64Url::decode($signature);
        $otherSet = $scheme->name === 'ML-DSA-44' ? PqScheme::named('ML-DSA-65') : PqScheme::named('ML-DSA-44');
        $tamperings = [
            'with a bit of its signature flipped' => [$header . '.' . $payload . '.' . Base64Url::encode(self::flip($bytes, intdiv(strlen($bytes), 2))), $keys],
            'with a bit of its payload flipped' => [$header . '.' . Base64Url::encode(self::flip(Base64Url::decode($payload), 0)) . '.' . $signature, $keys],
            'with its signature one byte short' => [$header . '.' . $payload . '.' . Base64Url::encode(substr($bytes, 0, -1)), $keys],
            sprintf('with a header naming %s', $otherSet->joseAlg) => [Base64Url::encode(json_encode(['alg' => $otherSet->joseAlg, 'typ' => 'JWT'], JSON_THROW_ON_ERROR)) . '.' . $payload . '.' . $signature, $keys],
            sprintf('checked with another %s key', $scheme->name) => [$token, $other],
        ];
        $refused = [];
        foreach ($tamperings as $what => [$tampered, $verifier]) {
            try {
                CompactToken::verify($scheme, $verifier->public, $tampered);
            } catch (SignatureRejected|MalformedToken|AlgorithmNotAllowed $e) {
                $refused[] = sprintf('%s token %s: %s', $scheme->name, $what, $e->getMessage());
                continue;
            }
            throw VerificationFailed::knownAnswerMismatch(sprintf('%s token %s', $scheme->name, $what), 'refusal', 'a token that verifies');
        }
        return $refused;
    }

    private static function flip(string $bytes, int $index): string
    {
        $bytes[$index] = chr(ord($bytes[$index]) ^ 0x01);
        return $bytes;
    }
}
