<?php

declare(strict_types=1);

namespace PhpCryptoBench\Tests\Pq;

use PhpCryptoBench\Pq\CliKeys;
use PhpCryptoBench\Pq\KeyPair;
use PhpCryptoBench\Pq\PqScheme;
use PhpCryptoBench\Pq\SignCase;
use PHPUnit\Framework\TestCase;

/** Which of the experiment's operations take a random time by design (Harness\RandomTime). */
final class SignCaseTest extends TestCase
{
    private const NOW = 1_767_225_600;

    public function testAClassicalSignatureIsCalibratedAsAnyCaseIs(): void
    {
        $private = openssl_pkey_new(['private_key_type' => OPENSSL_KEYTYPE_EC, 'curve_name' => 'prime256v1']);
        self::assertNotFalse($private);
        $pem = '';
        self::assertTrue(openssl_pkey_export($private, $pem));
        $keys = KeyPair::fromPem(PqScheme::named('P-256'), $pem);
        self::assertFalse((new SignCase($keys, SignCase::SIGN, 100, self::NOW))->takesRandomTime(), 'ECDSA signs in one pass');
        self::assertFalse((new SignCase($keys, SignCase::VERIFY, 100, self::NOW))->takesRandomTime());
    }

    public function testMlDsaSigningTakesARandomTimeAndItsVerificationDoesNot(): void
    {
        if (!MlDsaStack::present()) {
            return;
        }
        $scheme = PqScheme::named('ML-DSA-44');
        $keys = KeyPair::fromPem($scheme, (new CliKeys())->generate($scheme));
        self::assertTrue((new SignCase($keys, SignCase::SIGN, 100, self::NOW))->takesRandomTime(), "FIPS 204's rejection sampling");
        self::assertFalse((new SignCase($keys, SignCase::VERIFY, 100, self::NOW))->takesRandomTime());
    }
}
