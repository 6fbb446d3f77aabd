<?php

declare(strict_types=1);

namespace PhpCryptoBench\Pq;

use OpenSSLAsymmetricKey;
use PhpCryptoBench\Exception\VerificationFailed;
use PhpCryptoBench\Harness\BenchCase;

/**
 * Loading a key from its PEM text, as a PHP request does when it reads the key from a file or an
 * environment variable: openssl_pkey_get_private() of the private key `openssl genpkey` wrote, or
 * openssl_pkey_get_public() of the public key. The last key loaded must sign (the private key) or
 * verify (the public key) like the key it was written from.
 */
final class LoadCase implements BenchCase
{
    public const PRIVATE = 'load_private';
    public const PUBLIC = 'load_public';

    private readonly string $signature;
    private OpenSSLAsymmetricKey|false $loaded = false;

    public function __construct(private readonly KeyPair $keys, private readonly string $operation)
    {
        $this->signature = CompactToken::signature($keys->scheme, $keys->private, $this->message());
    }

    public function key(): array
    {
        return ['algorithm' => $this->keys->scheme->name, 'operation' => $this->operation, 'payload_chars' => 0];
    }

    public function label(): string
    {
        return sprintf('%s %s', $this->keys->scheme->name, $this->operation);
    }

    public function bytesPerIteration(): int
    {
        return strlen($this->pem());
    }

    public function run(int $iterations): void
    {
        $pem = $this->pem();
        if ($this->operation === self::PRIVATE) {
            for ($i = 0; $i < $iterations; $i++) {
                $this->loaded = openssl_pkey_get_private($pem);
            }
            return;
        }
        for ($i = 0; $i < $iterations; $i++) {
            $this->loaded = openssl_pkey_get_public($pem);
        }
    }

    public function verifyLastRun(): void
    {
        $scheme = $this->keys->scheme;
        if (!$this->loaded instanceof OpenSSLAsymmetricKey) {
            throw VerificationFailed::operationFailed($this->label(), 'expected a key, the PEM did not load');
        }
        $works = $this->operation === self::PRIVATE
            ? openssl_verify($this->message(), CompactToken::signature($scheme, $this->loaded, $this->message()), $this->keys->public, $scheme->digest) === 1
            : openssl_verify($this->message(), $this->signature, $this->loaded, $scheme->digest) === 1;
        if (!$works) {
            throw VerificationFailed::operationFailed($this->label(), 'expected the loaded key to ' . ($this->operation === self::PRIVATE ? 'sign' : 'verify') . ' like the one it was written from, it did not');
        }
    }

    private function pem(): string
    {
        return $this->operation === self::PRIVATE ? $this->keys->privatePem : $this->keys->publicPem;
    }

    private function message(): string
    {
        return 'the key loaded from ' . $this->operation;
    }
}
