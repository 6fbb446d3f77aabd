<?php

declare(strict_types=1);

namespace PhpCryptoBench\Pitfalls;

use OpenSSLAsymmetricKey;
use PhpCryptoBench\Exception\VerificationFailed;
use PhpCryptoBench\Jws\OpensslErrors;
use PhpCryptoBench\Native\NativePrimitive;

/**
 * openssl_verify() given the public key as PEM text, which OpenSSL 3 decodes on every call, against
 * the same key loaded once with openssl_pkey_get_public().
 */
final class PemVersusKeyObject implements Pitfall
{
    private const MESSAGE = 'header.payload of a token, or any message that was signed';

    private readonly string $pem;
    private readonly OpenSSLAsymmetricKey $public;
    private readonly string $signature;

    private function __construct(private readonly string $name, OpenSSLAsymmetricKey $private)
    {
        $this->pem = (string) openssl_pkey_get_details($private)['key'];
        $public = openssl_pkey_get_public($this->pem);
        $signature = '';
        if ($public === false || !openssl_sign(self::MESSAGE, $signature, $private, 'sha256')) {
            throw VerificationFailed::operationFailed($name, 'expected a key pair that signs, OpenSSL refused: ' . openssl_error_string());
        }
        $this->public = $public;
        $this->signature = $signature;
    }

    public static function rsa2048(): self
    {
        return new self('pem-vs-object-rsa2048', self::key(['private_key_type' => OPENSSL_KEYTYPE_RSA, 'private_key_bits' => 2048]));
    }

    public static function p256(): self
    {
        return new self('pem-vs-object-p256', self::key(['private_key_type' => OPENSSL_KEYTYPE_EC, 'curve_name' => 'prime256v1']));
    }

    /** @param array<string, int|string> $options */
    private static function key(array $options): OpenSSLAsymmetricKey
    {
        return openssl_pkey_new($options) ?: throw VerificationFailed::operationFailed('key generation', (string) openssl_error_string());
    }

    public function name(): string
    {
        return $this->name;
    }

    public function variants(): array
    {
        $valid = static fn (mixed $result): ?string => $result === 1 ? null : sprintf('expected openssl_verify() to return 1, got %s', var_export($result, true));
        return [
            new PitfallCase($this->name, 'pem', fn (): int|false => openssl_verify(self::MESSAGE, $this->signature, $this->pem, 'sha256'), $valid),
            new PitfallCase($this->name, 'object', fn (): int|false => openssl_verify(self::MESSAGE, $this->signature, $this->public, 'sha256'), $valid),
        ];
    }

    public function agreement(): string
    {
        $tampered = $this->signature;
        $tampered[10] = chr(ord($tampered[10]) ^ 1);
        foreach ([$this->pem, $this->public] as $key) {
            $answers = [openssl_verify(self::MESSAGE, $this->signature, $key, 'sha256'), @openssl_verify(self::MESSAGE, $tampered, $key, 'sha256')];
            OpensslErrors::drain();
            if ($answers !== [1, 0]) {
                throw VerificationFailed::knownAnswerMismatch($this->name, 'the signature accepted (1) and a changed one refused (0) with either key', sprintf('%s and %s with the %s', var_export($answers[0], true), var_export($answers[1], true), is_string($key) ? 'PEM text' : 'key object'));
            }
        }
        return sprintf('%s: with the PEM text and with the key object, the signature verifies (1) and a changed one does not (0)', $this->name);
    }

    public function native(): ?NativePrimitive
    {
        return null;
    }
}
