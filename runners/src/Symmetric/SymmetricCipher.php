<?php

declare(strict_types=1);

namespace PhpCryptoBench\Symmetric;

use PhpCryptoBench\Exception\CipherFailed;
use PhpCryptoBench\Exception\InvalidPadding;

/** One cipher and mode of one engine (mcrypt or OpenSSL), as the symmetric experiment times it. */
interface SymmetricCipher
{
    /** mcrypt|openssl */
    public function engine(): string;

    /** default|legacy for OpenSSL's providers, builtin for mcrypt */
    public function provider(): string;

    /** The engine's own name: rijndael-128, blowfish, aes-256-cbc, ... */
    public function cipher(): string;

    public function mode(): string;

    public function keyBits(): int;

    /** pkcs7|none */
    public function padding(): string;

    public function ivBytes(): int;

    /** @throws CipherFailed */
    public function encrypt(string $plaintext, string $key, string $iv): string;

    /** @throws CipherFailed|InvalidPadding */
    public function decrypt(string $ciphertext, string $key, string $iv): string;
}
