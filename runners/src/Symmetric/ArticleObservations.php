<?php

declare(strict_types=1);

namespace PhpCryptoBench\Symmetric;

/**
 * What seeds 000 and 001 state about mcrypt and openssl_encrypt, observed on this PHP: recorded in
 * the manifest's verification (`observed`) so the build can judge those statements from the run.
 * Nothing here is timed; each observation is a few calls.
 */
final class ArticleObservations
{
    /** Seed 001's OpenSSL code: a key hard-coded in the class, the IV from md5($password). */
    private const SEED001_KEY = '7d9!y8y4=h7v2v8v*1|1';
    /** Modes that encrypt any length without padding (NIST SP 800-38A), next to CBC, which pads. */
    private const STREAM_MODES = ['aes-256-cfb', 'aes-256-cfb8', 'aes-256-cfb1', 'aes-256-ofb', 'aes-256-ctr', 'aes-256-cbc'];
    private const UNPADDED_PROBE_BYTES = 1000;

    /** @return array<string, bool|int|list<string>> */
    public static function observe(): array
    {
        $observed = self::openssl();
        if (extension_loaded('mcrypt')) {
            $observed += self::mcrypt();
        }
        return $observed;
    }

    /** @return array<string, bool|list<string>> */
    private static function openssl(): array
    {
        $key = random_bytes(32);
        $iv = random_bytes(16);
        $raw = (string) openssl_encrypt('seed 000', 'aes-256-cbc', $key, OPENSSL_RAW_DATA, $iv);
        $short = random_bytes(16);
        $long = random_bytes(40);
        return [
            'openssl_base64_without_raw_data' => openssl_encrypt('seed 000', 'aes-256-cbc', $key, 0, $iv) === base64_encode($raw),
            // openssl_encrypt sizes nothing itself: a key of the wrong length is padded with zero bytes or cut.
            'openssl_pads_short_key' => @openssl_encrypt('x', 'aes-256-cbc', $short, OPENSSL_RAW_DATA, $iv) === openssl_encrypt('x', 'aes-256-cbc', $short . str_repeat("\0", 16), OPENSSL_RAW_DATA, $iv),
            'openssl_truncates_long_key' => @openssl_encrypt('x', 'aes-256-cbc', $long, OPENSSL_RAW_DATA, $iv) === openssl_encrypt('x', 'aes-256-cbc', substr($long, 0, 32), OPENSSL_RAW_DATA, $iv),
            'openssl_pads_short_iv' => @openssl_encrypt('x', 'aes-256-cbc', $key, OPENSSL_RAW_DATA, 'short') === openssl_encrypt('x', 'aes-256-cbc', $key, OPENSSL_RAW_DATA, 'short' . str_repeat("\0", 11)),
            'openssl_unpadded_modes' => self::unpaddedModes(),
            'ecb_repeats_blocks' => self::ecbRepeatsBlocks(),
            'cfb_bit_flip_undetected' => self::cfbBitFlipUndetected(),
            'password_iv_repeats_ciphertext' => self::passwordIvRepeats(),
            'star_appended_base64_decrypts' => self::starAppendedDecrypts(),
        ];
    }

    /** @return list<string> the ciphers whose ciphertext is exactly as long as the plaintext */
    public static function unpaddedModes(): array
    {
        $plaintext = random_bytes(self::UNPADDED_PROBE_BYTES);
        $unpadded = [];
        foreach (self::STREAM_MODES as $cipher) {
            $ciphertext = openssl_encrypt($plaintext, $cipher, random_bytes(32), OPENSSL_RAW_DATA, random_bytes(16));
            if (is_string($ciphertext) && strlen($ciphertext) === self::UNPADDED_PROBE_BYTES) {
                $unpadded[] = $cipher;
            }
        }
        return $unpadded;
    }

    public static function ecbRepeatsBlocks(): bool
    {
        $ciphertext = (string) openssl_encrypt(str_repeat('sixteen byte blk', 2), 'aes-128-ecb', random_bytes(16), OPENSSL_RAW_DATA);
        return substr($ciphertext, 0, 16) === substr($ciphertext, 16, 16);
    }

    /** Flip one ciphertext bit of unauthenticated CFB: decryption succeeds, and the same plaintext bit flips. */
    public static function cfbBitFlipUndetected(): bool
    {
        $key = random_bytes(32);
        $iv = random_bytes(16);
        $plaintext = 'contractID=1042';
        $ciphertext = (string) openssl_encrypt($plaintext, 'aes-256-cfb', $key, OPENSSL_RAW_DATA, $iv);
        $ciphertext[11] = $ciphertext[11] ^ "\x01";
        $decrypted = openssl_decrypt($ciphertext, 'aes-256-cfb', $key, OPENSSL_RAW_DATA, $iv);
        return $decrypted === 'contractID=0042';
    }

    /** Seed 001's IV, substr(md5($password), 0, 16): the same plaintext encrypts to the same ciphertext. */
    public static function passwordIvRepeats(): bool
    {
        $iv = substr(md5('a password'), 0, 16);
        $first = openssl_encrypt('contractID=1042', 'aes-256-cfb', self::SEED001_KEY, 0, $iv);
        return $first === openssl_encrypt('contractID=1042', 'aes-256-cfb', self::SEED001_KEY, 0, $iv);
    }

    /**
     * Seed 001's TEST 7 decrypted `$ciphertext . '*'` (base64, as openssl_encrypt returns it without
     * OPENSSL_RAW_DATA): the ciphers for which that still gives the plaintext back.
     *
     * @return list<string>
     */
    public static function starAppendedDecrypts(): array
    {
        $decrypts = [];
        foreach (['des-cfb1', 'des-ede3-cfb1'] as $cipher) {
            if (!in_array($cipher, openssl_get_cipher_methods(), true)) {
                continue;
            }
            $iv = substr(md5(''), 0, (int) openssl_cipher_iv_length($cipher));
            $ciphertext = openssl_encrypt('4242', $cipher, self::SEED001_KEY, 0, $iv);
            if (is_string($ciphertext) && openssl_decrypt($ciphertext . '*', $cipher, self::SEED001_KEY, 0, $iv) === '4242') {
                $decrypts[] = $cipher;
            }
        }
        return $decrypts;
    }

    /** @return array<string, bool|int> */
    private static function mcrypt(): array
    {
        $key = random_bytes(16);
        $iv = random_bytes(16);
        $padded = mcrypt_encrypt('rijndael-128', $key, str_repeat('a', 14), 'cbc', $iv);
        $roundTrip = static fn (string $plaintext): string => mcrypt_decrypt('rijndael-128', $key, mcrypt_encrypt('rijndael-128', $key, $plaintext, 'cbc', $iv), 'cbc', $iv);
        return [
            'mcrypt_zero_pads' => strlen($padded) === 16 && mcrypt_decrypt('rijndael-128', $key, $padded, 'cbc', $iv) === str_repeat('a', 14) . "\0\0",
            // Two plaintexts that differ only by a trailing zero byte come back as the same bytes.
            'mcrypt_zero_padding_ambiguous' => $roundTrip('ab') === $roundTrip("ab\0"),
            'mcrypt_rijndael_256_block_bytes' => mcrypt_get_block_size('rijndael-256', 'cbc'),
            'mcrypt_rijndael_256_equals_aes_256' => self::rijndael256EqualsAes256(),
            'mcrypt_refuses_wrong_key_length' => @mcrypt_encrypt('rijndael-128', 'ten bytes!', 'x', 'cbc', $iv) === false,
            'mcrypt_refuses_wrong_iv_length' => @mcrypt_encrypt('rijndael-128', $key, 'x', 'cbc', 'short') === false,
        ];
    }

    /** mcrypt's rijndael-256 with a 32-byte key against AES-256, both ECB on one 32-byte input. */
    public static function rijndael256EqualsAes256(): bool
    {
        $key = random_bytes(32);
        $plaintext = random_bytes(32);
        $aes = openssl_encrypt($plaintext, 'aes-256-ecb', $key, OPENSSL_RAW_DATA | OPENSSL_ZERO_PADDING);
        return mcrypt_encrypt('rijndael-256', $key, $plaintext, 'ecb', '') === $aes;
    }
}
