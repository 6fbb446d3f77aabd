<?php

declare(strict_types=1);

namespace PhpCryptoBench\Jwt;

use PhpCryptoBench\Exception\BenchException;
use PhpCryptoBench\Exception\VerificationFailed;
use PhpCryptoBench\Harness\BenchCase;
use PhpCryptoBench\Harness\SystemWallClock;
use PhpCryptoBench\Harness\WallClock;
use PhpCryptoBench\Jws\CompactJws;
use PhpCryptoBench\Jws\Key;

/**
 * Signs a JWT, verifies one (signature and exp/nbf), or generates keys, for one algorithm and
 * payload size. Every signed token is verified, every generated key signs a token that verifies.
 */
final class JwtCase implements BenchCase
{
    public const SIGN = 'sign';
    public const VERIFY = 'verify';
    public const KEYGEN = 'keygen';
    private const LIFETIME_S = 7 * 86400; // the seed's tokens lived a week

    private readonly Key $signingKey;
    private readonly Key $verificationKey;
    private readonly string $token;
    private readonly WallClock $clock;
    /** @var array<string, int|string> */
    private readonly array $claims;
    private string $lastToken = '';
    private bool $allVerified = true;
    /** @var list<mixed> */
    private array $generated = [];

    public function __construct(
        private readonly JwtScheme $scheme,
        private readonly string $operation,
        private readonly int $payloadChars,
        mixed $privateKey,
    ) {
        $this->clock = new SystemWallClock();
        $this->signingKey = $scheme->signingKey($privateKey);
        $this->verificationKey = $scheme->verificationKey($privateKey);
        $this->claims = self::claims($payloadChars, $this->clock->now()->getTimestamp());
        $this->token = CompactJws::signClaims($this->signingKey, $this->claims);
    }

    /** @return array<string, int|string> the seed's {"data": "1234567890…"}, with iat and exp */
    public static function claims(int $chars, int $now): array
    {
        return ['data' => substr(str_repeat('1234567890', intdiv($chars, 10) + 1), 0, $chars), 'iat' => $now, 'exp' => $now + self::LIFETIME_S];
    }

    public function token(): string
    {
        return $this->token;
    }

    /** The key this case signs with: the raw primitive is timed on this very object (PrimitiveCase). */
    public function signingKey(): Key
    {
        return $this->signingKey;
    }

    /** The key this case verifies with, imported from the public JWK: the raw primitive is timed on this very object. */
    public function verificationKey(): Key
    {
        return $this->verificationKey;
    }

    public function key(): array
    {
        return [
            'alg' => $this->scheme->name(),
            'key_type' => $this->scheme->keyType,
            'key_bits' => $this->scheme->keyBits,
            'payload_chars' => $this->operation === self::KEYGEN ? 0 : $this->payloadChars,
            'token_bytes' => $this->operation === self::KEYGEN ? 0 : strlen($this->token),
            'operation' => $this->operation,
        ];
    }

    public function label(): string
    {
        return sprintf('%s %s %d chars', $this->scheme->name(), $this->operation, $this->payloadChars);
    }

    public function bytesPerIteration(): int
    {
        return strlen($this->token);
    }

    public function run(int $iterations): void
    {
        if ($this->operation === self::KEYGEN) {
            $this->generated = [];
            for ($i = 0; $i < $iterations; $i++) {
                $this->generated[] = $this->scheme->generate();
            }
            return;
        }
        if ($this->operation === self::SIGN) {
            for ($i = 0; $i < $iterations; $i++) {
                $this->lastToken = CompactJws::signClaims($this->signingKey, $this->claims);
            }
            return;
        }
        $all = true;
        for ($i = 0; $i < $iterations; $i++) {
            $all = CompactJws::verifyJwt($this->token, $this->verificationKey, $this->clock)->claims === $this->claims && $all;
        }
        $this->allVerified = $all;
    }

    public function verifyLastRun(): void
    {
        try {
            $problem = match ($this->operation) {
                self::SIGN => CompactJws::verifyJwt($this->lastToken, $this->verificationKey, $this->clock)->claims === $this->claims ? null : 'the signed token carries other claims',
                self::VERIFY => $this->allVerified ? null : 'a verification returned other claims',
                default => $this->firstBadKey(),
            };
        } catch (BenchException $e) {
            $problem = $e->getMessage();
        }
        if ($problem !== null) {
            throw VerificationFailed::operationFailed($this->label(), $problem);
        }
    }

    private function firstBadKey(): ?string
    {
        foreach ($this->generated as $index => $key) {
            $token = CompactJws::signClaims($this->scheme->signingKey($key), $this->claims);
            if (CompactJws::verifyJwt($token, $this->scheme->verificationKey($key), $this->clock)->claims !== $this->claims) {
                return sprintf('key %d: its token does not verify', $index + 1);
            }
        }
        return $this->generated === [] ? 'expected generated keys, got none' : null;
    }
}
