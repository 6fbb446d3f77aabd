<?php

declare(strict_types=1);

namespace PhpCryptoBench\Jws;

use OpenSSLAsymmetricKey;
use PhpCryptoBench\Exception\WeakKey;

/**
 * An RSA key re-labelled as an RSASSA-PSS key (RFC 4055 section 3.1, RFC 8017 appendix A.2.3) whose
 * parameters fix the hash, MGF1 with the same hash, and the salt length. PHP's openssl_sign() and
 * openssl_verify() take no padding option, but OpenSSL signs and verifies such a key with PSS and
 * exactly these parameters: a signature with another salt length or hash is refused.
 */
final class RsaPssKey
{
    private const RSASSA_PSS_OID = "\x2a\x86\x48\x86\xf7\x0d\x01\x01\x0a";
    private const MGF1_OID = "\x2a\x86\x48\x86\xf7\x0d\x01\x01\x08";
    private const HASH_OIDS = [
        'sha256' => "\x60\x86\x48\x01\x65\x03\x04\x02\x01",
        'sha384' => "\x60\x86\x48\x01\x65\x03\x04\x02\x02",
        'sha512' => "\x60\x86\x48\x01\x65\x03\x04\x02\x03",
    ];
    /** RFC 8017 appendix A.1.2's RSAPrivateKey fields after its version: openssl_pkey_get_details()'s name => the JWK's. */
    private const PRIVATE_FIELDS = ['n' => 'n', 'e' => 'e', 'd' => 'd', 'p' => 'p', 'q' => 'q', 'dmp1' => 'dp', 'dmq1' => 'dq', 'iqmp' => 'qi'];

    /**
     * The RSASSA-PSS form of the RSA key whose openssl_pkey_get_details() 'rsa' member is $rsa: its
     * private key when the details hold one, else its public key.
     *
     * @param array<string, string> $rsa
     * @throws WeakKey when a private key lacks the CRT members: the RSAPrivateKey it is written as
     *     has no place for a key of n, e and d only (a JWK may omit them; RS signs with such a key, PS cannot)
     */
    public static function of(array $rsa, string $algorithm, string $hash, int $saltBytes): OpenSSLAsymmetricKey
    {
        // Reasons queued before this call would otherwise be reported as this key's.
        OpensslErrors::drain();
        $identifier = self::algorithmIdentifier($hash, $saltBytes);
        if (!isset($rsa['d'])) {
            $public = Der::sequence($identifier, Der::bitString(Der::sequence(Der::unsignedInteger($rsa['n']), Der::unsignedInteger($rsa['e']))));
            return self::loaded(openssl_pkey_get_public(Der::pem('PUBLIC KEY', $public)), $algorithm);
        }
        $missing = array_diff_key(self::PRIVATE_FIELDS, $rsa);
        if ($missing !== []) {
            throw WeakKey::wrongType($algorithm, 'an RSA private key with its CRT members (p, q, dp, dq, qi), which its RSASSA-PSS form needs', 'one without ' . implode(', ', $missing));
        }
        $versionZero = Der::unsignedInteger("\0");
        $fields = array_map(static fn (string $name): string => Der::unsignedInteger($rsa[$name]), array_keys(self::PRIVATE_FIELDS));
        $pkcs8 = Der::sequence($versionZero, $identifier, Der::octetString(Der::sequence($versionZero, ...$fields)));
        return self::loaded(openssl_pkey_get_private(Der::pem('PRIVATE KEY', $pkcs8)), $algorithm);
    }

    /** AlgorithmIdentifier { id-RSASSA-PSS, RSASSA-PSS-params { hash, MGF1(hash), saltLength } }; the trailer field keeps its default. */
    private static function algorithmIdentifier(string $hash, int $saltBytes): string
    {
        $hashIdentifier = Der::sequence(Der::oid(self::HASH_OIDS[$hash]), Der::nullValue());
        return Der::sequence(
            Der::oid(self::RSASSA_PSS_OID),
            Der::sequence(
                Der::explicit(0, $hashIdentifier),
                Der::explicit(1, Der::sequence(Der::oid(self::MGF1_OID), $hashIdentifier)),
                Der::explicit(2, Der::unsignedInteger(pack('N', $saltBytes))),
            ),
        );
    }

    private static function loaded(OpenSSLAsymmetricKey|false $key, string $algorithm): OpenSSLAsymmetricKey
    {
        // OpenSSL's PEM decoders try several formats and queue a reason for each they skipped.
        $reasons = OpensslErrors::drain();
        return $key ?: throw WeakKey::wrongType($algorithm, 'an RSA key OpenSSL accepts as an RSASSA-PSS key', 'one it refused (' . implode('; ', $reasons) . ')');
    }
}
