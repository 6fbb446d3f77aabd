<?php

declare(strict_types=1);

namespace PhpCryptoBench\Jws;

use PhpCryptoBench\Exception\SignatureRejected;
use PhpCryptoBench\Exception\WeakKey;

/** One JWS signature algorithm (RFC 7518, RFC 8037): its key rules, signing and verification. */
interface Algorithm
{
    /** The `alg` header value, e.g. ES256. */
    public function name(): string;

    /**
     * Checks that the key fits this algorithm and reads what signing and verifying need to know
     * about it. Called once, by Key's named constructors.
     *
     * @param bool $forSigning a private key (signing) or a public one (verification)
     * @throws WeakKey when the key does not fit this algorithm
     */
    public function facts(mixed $material, bool $forSigning, KeyDetails $details): KeyFacts;

    /** @throws SignatureRejected when signing fails */
    public function sign(Key $key, string $input): string;

    /** @throws SignatureRejected when the signature has the wrong length for this algorithm */
    public function verify(Key $key, string $input, string $signature): bool;
}
