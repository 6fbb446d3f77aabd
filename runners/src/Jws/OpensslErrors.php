<?php

declare(strict_types=1);

namespace PhpCryptoBench\Jws;

/**
 * OpenSSL's per-thread error queue, as ext-openssl exposes it. A refused signature or a key that did
 * not decode leaves reasons queued (a valid signature leaves none); left there, the next
 * openssl_error_string() would blame them on a later, unrelated call.
 */
final class OpensslErrors
{
    /** @return list<string> the reasons that were queued, oldest first; the queue is empty after */
    public static function drain(): array
    {
        $reasons = [];
        while (($reason = openssl_error_string()) !== false) {
            $reasons[] = $reason;
        }
        return $reasons;
    }
}
