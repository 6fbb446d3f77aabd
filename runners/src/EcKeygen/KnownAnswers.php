<?php

declare(strict_types=1);

namespace PhpCryptoBench\EcKeygen;

use OpenSSLAsymmetricKey;
use PhpCryptoBench\Exception\VerificationFailed;
use PhpCryptoBench\Io\JsonFile;
use PhpCryptoBench\Verification\VectorReport;

/**
 * Published answers the primitives must reproduce before any key is timed: ECDH on P-256
 * (RFC 5903 section 8.1), X25519 (RFC 7748 section 6.1) and Ed25519 verification (Wycheproof).
 */
final class KnownAnswers
{
    private const RFC5903_P256 = [
        'i' => 'c88f01f510d9ac3f70a292daa2316de544e9aab8afe84049c62a9c57862d1433',
        'gix' => 'dad0b65394221cf9b051e1feca5787d098dfe637fc90b9ef945d0c3772581180',
        'r' => 'c6ef9c5d78ae012a011164acb397ce2088685d8f06bf9be0b283ab46476bee53',
        'grx' => 'd12dfb5289c8d4f81208b70270398c342296970a0bccb74c736fc7554494bf63',
        'girx' => 'd6840f6b42f6edafd13116e0e12565202fef8e9ece7dce03812464d04b9442de',
    ];
    private const RFC7748_X25519 = [
        'alice_private' => '77076d0a7318a57d3c16c17251b26645df4c2f87ebc0992ab177fba51db92c2a',
        'alice_public' => '8520f0098930a754748b7ddcb43ef75a0dbf3a0d26381af4eba4a98eaa9b4e6a',
        'bob_public' => 'de9edb7d7b7dc1b4d35b61c2ece435373f8343c85b78674dadfc7e146f882b4f',
        'shared' => '4a5d9d5ba4ce2de1728e3bf480350f25e07e21c947d19e3376f09b3c1e161742',
    ];
    private const ED25519_FILE = 'ed25519_test.json';

    public function __construct(private readonly string $vectorDirectory)
    {
    }

    /** @return array{known_answers: list<string>, vectors: list<array<string, mixed>>} */
    public function run(): array
    {
        $this->p256Ecdh();
        $this->x25519();
        return [
            'known_answers' => ['RFC 5903 section 8.1: P-256 public key and ECDH secret', 'RFC 7748 section 6.1: X25519 public key and shared secret'],
            'vectors' => [$this->ed25519()->toArray()],
        ];
    }

    /**
     * Both sides are built from their private scalars: given only x and y, PHP's openssl_pkey_new()
     * quietly generates a new random key instead of importing the point.
     */
    private function p256Ecdh(): void
    {
        $initiator = self::p256FromScalar('i', 'gix');
        $responder = self::p256FromScalar('r', 'grx');
        $details = openssl_pkey_get_details($responder);
        $responderPublic = $details === false ? false : openssl_pkey_get_public((string) $details['key']);
        $secret = $responderPublic === false ? false : openssl_pkey_derive($responderPublic, $initiator);
        self::expectEqual('RFC 5903 P-256 ECDH secret', self::RFC5903_P256['girx'], $secret === false ? 'no secret' : bin2hex($secret));
    }

    private static function p256FromScalar(string $scalar, string $publicX): OpenSSLAsymmetricKey
    {
        $key = openssl_pkey_new(['ec' => ['curve_name' => 'prime256v1', 'd' => (string) hex2bin(self::RFC5903_P256[$scalar])]]);
        $details = $key === false ? false : openssl_pkey_get_details($key);
        $x = $details === false ? 'no key' : bin2hex(str_pad($details['ec']['x'], 32, "\0", STR_PAD_LEFT));
        self::expectEqual("RFC 5903 P-256 g$scalar x", self::RFC5903_P256[$publicX], $x);
        assert($key instanceof OpenSSLAsymmetricKey);
        return $key;
    }

    private function x25519(): void
    {
        $vector = array_map(static fn (string $hex): string => (string) hex2bin($hex), self::RFC7748_X25519);
        self::expectEqual('RFC 7748 X25519 public key', self::RFC7748_X25519['alice_public'], bin2hex(sodium_crypto_scalarmult_base($vector['alice_private'])));
        self::expectEqual('RFC 7748 X25519 shared secret', self::RFC7748_X25519['shared'], bin2hex(sodium_crypto_scalarmult($vector['alice_private'], $vector['bob_public'])));
    }

    private function ed25519(): VectorReport
    {
        $scheme = SodiumCurve25519::ed25519();
        $passed = 0;
        foreach (JsonFile::read($this->vectorDirectory . '/' . self::ED25519_FILE, 'vector file missing')['testGroups'] as $group) {
            $publicKey = (string) hex2bin((string) $group['publicKey']['pk']);
            foreach ($group['tests'] as $test) {
                $valid = $scheme->verify($publicKey, (string) hex2bin((string) $test['msg']), (string) hex2bin((string) $test['sig']));
                if ($valid !== ($test['result'] === 'valid')) {
                    throw VerificationFailed::vectorMismatch(self::ED25519_FILE, (int) $test['tcId'], (string) $test['result'], $valid ? 'valid' : 'invalid');
                }
                $passed++;
            }
        }
        return new VectorReport(self::ED25519_FILE, 'Ed25519 (sodium)', $passed, []);
    }

    private static function expectEqual(string $what, string $expectedHex, string $actualHex): void
    {
        if ($expectedHex !== $actualHex) {
            throw VerificationFailed::vectorMismatch($what, 0, $expectedHex, $actualHex);
        }
    }
}
