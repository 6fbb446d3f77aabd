<?php

declare(strict_types=1);

/*
 * A small command line to this project's JWS code, for interoperability tests with other libraries:
 *   php runners/jws.php sign ALG    < {"jwk": {private JWK}, "payload": "text"}   prints the token
 *   php runners/jws.php verify ALG  < {"jwk": {public JWK}, "token": "..."}      prints the payload
 * The JWK's use, key_ops and alg (RFC 7517 sections 4.2-4.4) must allow the operation and ALG.
 * A refused token or key: its reason on stderr, exit code 1. Bad usage (another command, input that
 * is not such a JSON object, a payload or token that is not a string): exit code 2.
 */

require __DIR__ . '/bootstrap.php';

use PhpCryptoBench\Exception\BenchException;
use PhpCryptoBench\Jws\Algorithms;
use PhpCryptoBench\Jws\CompactJws;
use PhpCryptoBench\Jws\Key;

[$command, $alg] = [$argv[1] ?? '', $argv[2] ?? ''];
$input = json_decode((string) stream_get_contents(STDIN), true);
$text = ['sign' => 'payload', 'verify' => 'token'][$command] ?? null;
// (Input that is not a JSON object has no jwk member either.)
if ($text === null || !is_array($input['jwk'] ?? null) || !is_string($input[$text] ?? null)) {
    fwrite(STDERR, "usage: php runners/jws.php sign|verify ALG < {\"jwk\": {...}, \"payload\"|\"token\": \"...\"}\n");
    exit(2);
}
try {
    $algorithm = Algorithms::named($alg);
    echo $command === 'sign'
        ? CompactJws::sign(Key::signingJwk($algorithm, $input['jwk']), $input['payload'], ['typ' => 'JWT'])
        : CompactJws::verify($input['token'], Key::verificationJwk($algorithm, $input['jwk']))->payload;
} catch (BenchException $e) {
    fwrite(STDERR, $e->getMessage() . "\n");
    exit(1);
}
