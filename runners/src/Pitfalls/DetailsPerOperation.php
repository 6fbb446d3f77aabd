<?php

declare(strict_types=1);

namespace PhpCryptoBench\Pitfalls;

use OpenSSLAsymmetricKey;
use PhpCryptoBench\Exception\VerificationFailed;
use PhpCryptoBench\Native\NativePrimitive;

/**
 * An RSA-2048 verification with the signature-length check RFC 8017 requires, reading the modulus
 * size with openssl_pkey_get_details() on every call (what this project's JWS code did) against
 * reading it once when the key is loaded.
 */
final class DetailsPerOperation implements Pitfall
{
    public const NAME = 'details-per-operation';
    private const MESSAGE = 'header.payload of a token';

    private readonly OpenSSLAsymmetricKey $public;
    private readonly string $signature;
    private readonly int $modulusBytes;

    public function __construct()
    {
        $private = openssl_pkey_new(['private_key_type' => OPENSSL_KEYTYPE_RSA, 'private_key_bits' => 2048]);
        $details = $private === false ? false : openssl_pkey_get_details($private);
        $public = $details === false ? false : openssl_pkey_get_public((string) $details['key']);
        $signature = '';
        if ($private === false || $public === false || !openssl_sign(self::MESSAGE, $signature, $private, 'sha256')) {
            throw VerificationFailed::operationFailed(self::NAME, 'expected an RSA-2048 key pair that signs, OpenSSL refused');
        }
        $this->public = $public;
        $this->signature = $signature;
        $this->modulusBytes = intdiv((int) $details['bits'] + 7, 8);
    }

    public function name(): string
    {
        return self::NAME;
    }

    private function everyCall(string $signature): bool
    {
        $details = openssl_pkey_get_details($this->public);
        return $details !== false && strlen($signature) === intdiv((int) $details['bits'] + 7, 8)
            && openssl_verify(self::MESSAGE, $signature, $this->public, 'sha256') === 1;
    }

    private function once(string $signature): bool
    {
        return strlen($signature) === $this->modulusBytes && openssl_verify(self::MESSAGE, $signature, $this->public, 'sha256') === 1;
    }

    public function variants(): array
    {
        $valid = static fn (mixed $result): ?string => $result === true ? null : 'expected the signature to verify, it did not';
        return [
            new PitfallCase(self::NAME, 'details-every-call', fn (): bool => $this->everyCall($this->signature), $valid),
            new PitfallCase(self::NAME, 'size-read-once', fn (): bool => $this->once($this->signature), $valid),
        ];
    }

    public function agreement(): string
    {
        $short = substr($this->signature, 1);
        $answers = [[$this->everyCall($this->signature), $this->everyCall($short)], [$this->once($this->signature), $this->once($short)]];
        if ($answers !== [[true, false], [true, false]]) {
            throw VerificationFailed::knownAnswerMismatch(self::NAME, 'the signature accepted and one a byte short refused, both ways', json_encode($answers) ?: 'other answers');
        }
        return self::NAME . ': both ways accept the signature and refuse one a byte short';
    }

    public function native(): ?NativePrimitive
    {
        return null;
    }
}
