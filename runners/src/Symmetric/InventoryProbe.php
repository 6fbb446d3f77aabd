<?php

declare(strict_types=1);

namespace PhpCryptoBench\Symmetric;

use PhpCryptoBench\Exception\CipherFailed;

/** Tries each cipher name with a round trip and says what it does: the seed found CFB1 "broken". */
final class InventoryProbe
{
    /** A length that is not a multiple of any block size, so padding is exercised too. */
    private const PROBE_BYTES = 1000;
    /** Key wrapping takes whole 8-byte semiblocks only. */
    private const WRAP_PROBE_BYTES = 1024;

    public function classify(string $cipher, string $provider): InventoryEntry
    {
        $entry = static fn (string $status, string $detail): InventoryEntry => new InventoryEntry($cipher, $provider, $status, $detail);
        $mode = OpensslCipher::modeOf($cipher);
        if (in_array($mode, ['gcm', 'ccm', 'ocb', 'siv', 'aead'], true)) {
            return $entry(InventoryEntry::AEAD_NEEDS_TAG, 'authenticated: openssl_encrypt needs its $tag argument; see the AEAD page');
        }
        try {
            $openssl = new OpensslCipher($cipher, $provider);
        } catch (CipherFailed $e) {
            return $entry(InventoryEntry::UNSUPPORTED, $e->getMessage());
        }
        $special = $mode === 'wrap';
        $mismatch = null;
        try {
            $mismatch = self::roundTripMismatch($openssl, $special ? self::WRAP_PROBE_BYTES : self::PROBE_BYTES);
        } catch (CipherFailed $e) {
            return $entry(InventoryEntry::UNSUPPORTED, $e->getMessage());
        }
        if ($mismatch !== null) {
            return $entry(InventoryEntry::ROUNDTRIP_FAILED, $mismatch);
        }
        return $special
            ? $entry(InventoryEntry::NEEDS_SPECIAL_INPUT, 'key wrap: input must be a multiple of 8 bytes; measured with 200 KiB, a multiple of 8')
            : $entry(InventoryEntry::OK, sprintf('round trip of %d bytes gives them back', self::PROBE_BYTES));
    }

    /** Null when decrypt(encrypt(x)) === x, else what differs. */
    public static function roundTripMismatch(SymmetricCipher $cipher, int $bytes): ?string
    {
        $key = random_bytes(intdiv($cipher->keyBits(), 8));
        $iv = $cipher->ivBytes() > 0 ? random_bytes($cipher->ivBytes()) : '';
        $plaintext = random_bytes($bytes);
        $decrypted = $cipher->decrypt($cipher->encrypt($plaintext, $key, $iv), $key, $iv);
        if ($decrypted === $plaintext) {
            return null;
        }
        $common = min(strlen($plaintext), strlen($decrypted));
        $first = 0;
        while ($first < $common && $plaintext[$first] === $decrypted[$first]) {
            $first++;
        }
        return sprintf('expected the %d-byte plaintext back, got %d bytes differing from byte %d', strlen($plaintext), strlen($decrypted), $first);
    }
}
