<?php

declare(strict_types=1);

namespace PhpCryptoBench\Tests\Jws;

use PhpCryptoBench\Exception\MalformedToken;
use PhpCryptoBench\Exception\SignatureRejected;
use PhpCryptoBench\Exception\VerificationFailed;
use PhpCryptoBench\Jws\AttackChecks;
use PhpCryptoBench\Jws\Base64Url;
use PhpCryptoBench\Jws\EcdsaSignature;
use PhpCryptoBench\Jws\Jwk;
use PhpCryptoBench\Jws\KnownAnswers;
use PhpCryptoBench\Jws\WycheproofSignatureSuite;
use PHPUnit\Framework\TestCase;
use PHPUnit\Framework\Attributes\DataProvider;

/**
 * What the JWT experiment runs before it times anything: the published examples, the attacks, the
 * Wycheproof vectors. Each must fail loudly when its answer is wrong, not only pass when it is right.
 */
final class VerificationChecksTest extends TestCase
{
    private string $directory;

    protected function setUp(): void
    {
        $this->directory = sys_get_temp_dir() . '/phpcb-wycheproof-' . bin2hex(random_bytes(4));
        mkdir($this->directory);
    }

    protected function tearDown(): void
    {
        array_map('unlink', glob($this->directory . '/*') ?: []);
        rmdir($this->directory);
    }

    public function testTheKnownAnswersPassAndSayWhatTheyChecked(): void
    {
        self::assertSame([
            'RFC 7520 section 4.1 (RS256) reproduced byte for byte',
            'RFC 7520 sections 4.2 (PS384) and 4.3 (ES512) verify',
            'RFC 8037 appendix A.4 (Ed25519) reproduced byte for byte',
            'RFC 7515 appendices A.1 (HS256), A.2 (RS256) and A.3 (ES256) verify',
        ], KnownAnswers::run());
    }

    public function testEveryPublishedExampleIsChecked(): void
    {
        $checks = KnownAnswers::checks();
        self::assertSame([
            'RFC 7520 section 4.1 RS256, byte for byte',
            'RFC 7520 section 4.2 PS384 verifies',
            'RFC 7520 section 4.3 ES512 verifies',
            'RFC 8037 appendix A.4 Ed25519, byte for byte',
            'RFC 7515 appendix A HS256 verifies',
            'RFC 7515 appendix A RS256 verifies',
            'RFC 7515 appendix A ES256 verifies',
        ], array_keys($checks));
        foreach ($checks as $what => [$expected, $actual]) {
            self::assertSame($expected, $actual(), $what);
        }
    }

    public function testTheRunStopsAtTheFirstExampleThatDiffers(): void
    {
        $ran = [];
        $check = static function (string $value) use (&$ran): \Closure {
            return static function () use ($value, &$ran): string {
                $ran[] = $value;
                return $value;
            };
        };
        KnownAnswers::run(['first' => ['a', $check('a')], 'second' => ['b', $check('b')]]);
        self::assertSame(['a', 'b'], $ran, 'every check runs');
        $ran = [];
        try {
            KnownAnswers::run(['first' => ['a', $check('a')], 'second' => ['b', $check('c')], 'third' => ['d', $check('d')]]);
            self::fail('a differing value passed');
        } catch (VerificationFailed $e) {
            self::assertSame('second tcId 0: expected 1 bytes as published, got 1 bytes that differ', $e->getMessage());
        }
        self::assertSame(['a', 'c'], $ran);
    }

    /** Bytes are compared, not what PHP's loose == would make of them ("1e3" == "1000"). */
    public function testAKnownAnswerIsComparedByteForByte(): void
    {
        $this->expectException(VerificationFailed::class);
        KnownAnswers::run(['a number written another way' => ['1e3', static fn (): string => '1000']]);
    }

    public function testAKnownAnswerThatDiffersFails(): void
    {
        KnownAnswers::expect('same', 'abc', 'abc');
        $this->expectException(VerificationFailed::class);
        $this->expectExceptionMessage('RFC 1 tcId 0: expected 3 bytes as published, got 4 bytes that differ');
        KnownAnswers::expect('RFC 1', 'abc', 'abcd');
    }

    public function testTheAttackChecksNameEachRefusal(): void
    {
        $refused = AttackChecks::run();
        self::assertCount(12, $refused);
        self::assertContains('an RSA key under 2048 bits', $refused);
        self::assertContains('alg "none" with an empty signature', $refused);
        self::assertSame($refused, array_unique($refused));
    }

    /** @return iterable<string, array{\Closure(): mixed, string}> */
    public static function attacksNotRefusedAsExpected(): iterable
    {
        yield 'accepted' => [static fn (): string => 'accepted', 'acceptance'];
        yield 'refused by another exception' => [static fn () => throw MalformedToken::jwk('bad'), 'PhpCryptoBench\Exception\MalformedToken: JWK: bad'];
        yield 'refused for another reason' => [static fn () => throw SignatureRejected::length('ES256', 64, 63), 'PhpCryptoBench\Exception\SignatureRejected: ES256: expected a 64-byte signature, got 63 bytes'];
        yield 'refused by another exception in the same words' => [static fn () => throw MalformedToken::jwk('verifies with the key'), 'PhpCryptoBench\Exception\MalformedToken: JWK: verifies with the key'];
    }

    /**
     * An attack check fails when the attack is accepted, or refused by another exception or for
     * another reason than the one it checks: the wrong refusal would hide the hole it is about.
     *
     * @dataProvider attacksNotRefusedAsExpected
     */
    #[DataProvider('attacksNotRefusedAsExpected')]
    public function testAnAttackNotRefusedAsExpectedFails(\Closure $attempt, string $actual): void
    {
        $this->expectException(VerificationFailed::class);
        $this->expectExceptionMessage('JWS attack check: a forgery tcId 0: expected PhpCryptoBench\Exception\SignatureRejected (verifies with the key), got ' . $actual);
        AttackChecks::expectRefusal('a forgery', SignatureRejected::class, 'verifies with the key', $attempt);
    }

    public function testTheRunStopsAtTheFirstAttackNotRefused(): void
    {
        $tried = [];
        $refused = static function (string $name) use (&$tried): \Closure {
            return static function () use ($name, &$tried): never {
                $tried[] = $name;
                throw SignatureRejected::mismatch('ES256');
            };
        };
        $accepted = static function () use (&$tried): string {
            $tried[] = 'accepted';
            return 'token';
        };
        $check = static fn (\Closure $attempt): array => [SignatureRejected::class, 'verifies with the key', $attempt];
        self::assertSame(['one', 'two'], AttackChecks::run(['one' => $check($refused('one')), 'two' => $check($refused('two'))]));
        self::assertSame(['one', 'two'], $tried);
        $tried = [];
        try {
            AttackChecks::run(['one' => $check($refused('one')), 'forgery' => $check($accepted), 'three' => $check($refused('three'))]);
            self::fail('an accepted forgery passed');
        } catch (VerificationFailed $e) {
            self::assertStringStartsWith('JWS attack check: forgery tcId 0', $e->getMessage());
        }
        self::assertSame(['one', 'accepted'], $tried);
    }

    public function testAnAttackRefusedWithItsOwnExceptionAndReasonPasses(): void
    {
        AttackChecks::expectRefusal('a forgery', SignatureRejected::class, 'verifies with the key', static fn () => throw SignatureRejected::mismatch('ES256'));
        $this->addToAssertionCount(1);
    }

    /**
     * @param list<array<string, mixed>> $groups
     */
    private function vectors(string $file, array $groups): WycheproofSignatureSuite
    {
        file_put_contents("{$this->directory}/{$file}", json_encode(['testGroups' => $groups]));
        return new WycheproofSignatureSuite($this->directory);
    }

    /** An Ed25519 key, a message, its signature and a test list in Wycheproof's shape. */
    private static function ed25519Group(string $member, array $results): array
    {
        $pair = sodium_crypto_sign_seed_keypair(str_repeat("\x07", 32));
        $signature = sodium_crypto_sign_detached('message', sodium_crypto_sign_secretkey($pair));
        $wrong = $signature;
        $wrong[0] = chr(ord($wrong[0]) ^ 1);
        $tests = [];
        foreach ($results as $id => [$result, $valid]) {
            $sig = match ($valid) {
                true => $signature,
                false => $wrong,
                null => substr($signature, 1),
            };
            $tests[] = ['tcId' => $id + 1, 'msg' => bin2hex('message'), 'sig' => bin2hex($sig), 'result' => $result];
        }
        $jwk = ['kty' => 'OKP', 'crv' => 'Ed25519', 'x' => Base64Url::encode(sodium_crypto_sign_publickey($pair))];
        return [$member => $jwk, 'tests' => $tests];
    }

    public function testVectorsPassWhenTheLayerGivesTheirAnswer(): void
    {
        $report = $this->vectors('ed25519_test.json', [
            // a valid signature, a changed one, one a byte short (refused by length: invalid), one "acceptable"
            self::ed25519Group('publicKeyJwk', [['valid', true], ['invalid', false], ['invalid', null], ['acceptable', true]]),
            self::ed25519Group('keyJwk', [['valid', true], ['acceptable', false]]),
        ])->run('ed25519_test.json');
        self::assertSame(['ed25519_test.json', 'EdDSA (JWS signature layer)', 4], [$report->source, $report->algorithm, $report->passed]);
        self::assertSame(['"acceptable": legacy encodings Wycheproof lets a verifier take or refuse' => 2], $report->skipped);
    }

    /** @return iterable<string, array{array{string, bool|null}, string}> */
    public static function wrongAnswers(): iterable
    {
        yield 'a valid signature listed as invalid' => [['invalid', true], 'ed25519_test.json tcId 1: expected invalid, got valid'];
        yield 'a changed signature listed as valid' => [['valid', false], 'ed25519_test.json tcId 1: expected valid, got invalid'];
        yield 'a short signature listed as valid' => [['valid', null], 'ed25519_test.json tcId 1: expected valid, got invalid'];
    }

    /**
     * @dataProvider wrongAnswers
     * @param array{string, bool|null} $test
     */
    #[DataProvider('wrongAnswers')]
    public function testAVectorWhoseAnswerTheLayerDoesNotGiveFails(array $test, string $message): void
    {
        $this->expectException(VerificationFailed::class);
        $this->expectExceptionMessage($message);
        $this->vectors('ed25519_test.json', [self::ed25519Group('publicKeyJwk', [$test])])->run('ed25519_test.json');
    }

    public function testAGroupWhoseKeyTheAlgorithmRefusesVerifiesNothing(): void
    {
        $p384 = openssl_pkey_new(['private_key_type' => OPENSSL_KEYTYPE_EC, 'curve_name' => 'secp384r1']);
        openssl_sign('message', $der, $p384, 'sha256');
        $group = ['publicKeyJwk' => Jwk::publicOf($p384), 'tests' => [['tcId' => 7, 'msg' => bin2hex('message'), 'sig' => bin2hex(str_repeat("\x01", 64)), 'result' => 'invalid']]];
        $suite = $this->vectors('ecdsa_secp256r1_sha256_p1363_test.json', [$group]);
        self::assertSame(1, $suite->run('ecdsa_secp256r1_sha256_p1363_test.json')->passed, 'an ES256 verifier refuses a P-384 key: nothing verifies');

        $group['tests'][0]['result'] = 'valid';
        $this->expectExceptionMessage('ecdsa_secp256r1_sha256_p1363_test.json tcId 7: expected valid, got invalid');
        $this->vectors('ecdsa_secp256r1_sha256_p1363_test.json', [$group])->run('ecdsa_secp256r1_sha256_p1363_test.json');
    }

    public function testAGroupWithoutAJwkIsReadFromItsPem(): void
    {
        $p256 = openssl_pkey_new(['private_key_type' => OPENSSL_KEYTYPE_EC, 'curve_name' => 'prime256v1']);
        openssl_sign('message', $der, $p256, 'sha256');
        $raw = EcdsaSignature::derToRaw($der, 32);
        $group = ['publicKeyPem' => openssl_pkey_get_details($p256)['key'], 'tests' => [['tcId' => 1, 'msg' => bin2hex('message'), 'sig' => bin2hex($raw), 'result' => 'valid']]];
        self::assertSame(1, $this->vectors('ecdsa_secp256r1_sha256_p1363_test.json', [$group])->run('ecdsa_secp256r1_sha256_p1363_test.json')->passed);
    }
}
