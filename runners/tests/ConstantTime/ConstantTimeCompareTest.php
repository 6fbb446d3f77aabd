<?php

declare(strict_types=1);

namespace PhpCryptoBench\Tests\ConstantTime;

use FilesystemIterator;
use PHPUnit\Framework\TestCase;
use RecursiveDirectoryIterator;
use RecursiveIteratorIterator;
use PHPUnit\Framework\Attributes\DataProvider;

/**
 * A MAC, tag, signature or hash is compared with hash_equals(), never with ==, ===, !=, !==, <>, <=>,
 * strcmp() and its kind (issue 44, item 3): no value test sees the time a comparison takes, so this one
 * reads the code. Every file of runners/snippets/ (the recipes readers paste), runners/src/ and runners/
 * itself is scanned by SecretComparisonScanner, whose class comment says what counts as secret and why a
 * comparison with a constant or a literal (a tag *type* such as
 * SODIUM_CRYPTO_SECRETSTREAM_XCHACHA20POLY1305_TAG_FINAL, a length, '') is fine. Each rule has a fixture
 * below proving it can fail, and one more proves the scan fails on the audit's mutant of a real recipe.
 */
final class ConstantTimeCompareTest extends TestCase
{
    public function testNoRecipeOrRunnerCodeComparesASecretInVariableTime(): void
    {
        $scanner = new SecretComparisonScanner();
        $findings = [];
        $files = self::phpFiles();
        foreach ($files as $path) {
            foreach ($scanner->scan((string) file_get_contents(REPOSITORY . '/' . $path)) as $finding) {
                $findings[] = sprintf('%s:%d: %s compares a MAC, tag, signature or hash in variable time: %s', $path, $finding['line'], $finding['operator'], $finding['code']);
            }
        }
        self::assertGreaterThan(100, count($files), 'expected to scan the whole runner');
        self::assertContains('runners/snippets/cbc-encrypt-then-mac.php', $files);
        self::assertContains('runners/src/Jws/Hmac.php', $files);
        self::assertContains('runners/jws.php', $files);
        self::assertSame([], $findings, "use hash_equals(\$known, \$given):\n" . implode("\n", $findings));
    }

    /** @return iterable<string, array{string, string}> code => the operator (or function) the scan must report */
    public static function variableTime(): iterable
    {
        yield '!== on a variable named mac' => ['if ($mac !== $expected) { fail(); }', '!=='];
        yield '== on a tag' => ['$ok = $tag == $given;', '=='];
        yield '!= on a tag' => ['$bad = $given != $tag;', '!='];
        yield '<> on a tag' => ['$bad = $expectedTag <> $given;', '<>'];
        yield '<=> on a tag' => ['$order = $tag <=> $given;', '<=>'];
        yield '=== on a property' => ['return $this->signature === $computed;', '==='];
        yield '=== on a signature from an array' => ['return $parts[\'signature\'] === $computed;', '==='];
        yield '=== on one of a list of tags' => ['return $tags[$i] === $given;', '==='];
        yield '=== on hash_hmac()' => ['return hash_hmac(\'sha256\', $message, $key, true) === $given;', '==='];
        yield '=== on hash()' => ['return hash(\'sha256\', $message) === $stored;', '==='];
        yield '=== on md5()' => ['return md5($message) === $stored;', '==='];
        yield '=== on a function named ..._tag()' => ['return cbc_hmac_tag($a, $b, $c) !== substr($sealed, -32);', '!=='];
        yield '=== on a method named digest' => ['return $hasher->digest() === $given;', '==='];
        yield '=== on a static call named sig' => ['return Hmac::sig($key, $input) === $given;', '==='];
        yield '=== on a tag in hex' => ['return bin2hex($tag) === $hex;', '==='];
        yield '=== on a signature in base64url' => ['return Base64Url::encode($sig) === $parts[2];', '==='];
        yield '=== on a tag cut to 16 bytes' => ['return substr($tag, 0, 16) === $given;', '==='];
        yield '=== on a concatenation holding a MAC' => ['return \'v1.\' . $mac === $header;', '==='];
        yield '=== in brackets' => ['if (!(($tag) === ($given))) { fail(); }', '==='];
        yield '=== with a string cast' => ['return (string) $hmac === $given;', '==='];
        yield 'strcmp' => ['return strcmp($hmac, $given) === 0;', 'strcmp'];
        yield 'strcasecmp' => ['return strcasecmp($given, $hexDigest) === 0;', 'strcasecmp'];
        yield 'strncmp' => ['return strncmp($sig, $given, 16) === 0;', 'strncmp'];
        yield 'substr_compare' => ['return substr_compare($tag, $given, 0) === 0;', 'substr_compare'];
        yield 'a fully qualified strcmp' => ['return \strcmp($tag, $given) === 0;', 'strcmp'];
        yield 'in an arrow function' => ['$check = fn (string $given): bool => $given === $this->tag;', '==='];
        yield 'in a ternary' => ['$verdict = $mac === $given ? "ok" : "forged";', '==='];
    }

    /** @dataProvider variableTime */
    #[DataProvider('variableTime')]
    public function testTheScanReportsASecretComparedInVariableTime(string $code, string $operator): void
    {
        $findings = (new SecretComparisonScanner())->scan("<?php\n\n" . $code . "\n");
        self::assertCount(1, $findings, $code);
        self::assertSame(3, $findings[0]['line']);
        self::assertSame($operator, $findings[0]['operator']);
    }

    /** @return iterable<string, array{string}> code the scan must let be */
    public static function constantTimeOrNotSecret(): iterable
    {
        yield 'hash_equals' => ['return hash_equals($expected, $tag);'];
        yield 'a tag type against a constant (secretstream)' => ['if ($tag === SODIUM_CRYPTO_SECRETSTREAM_XCHACHA20POLY1305_TAG_FINAL) { return; }'];
        yield 'a tag against a class constant' => ['return $tag !== self::MESSAGE;'];
        yield 'a tag against a namespaced constant' => ['return $tag !== \Sodium\TAG_FINAL;'];
        yield 'a tag against a list of constants' => ['return $tags === [self::MESSAGE, self::FINAL];'];
        yield 'a signature against the empty string' => ['return $signature === \'\';'];
        yield 'a hash against null' => ['return $hash !== null;'];
        yield 'a MAC against false' => ['return $mac === false;'];
        yield 'a MAC\'s length' => ['return strlen($mac) !== 32;'];
        yield 'a MAC\'s length against another' => ['return strlen($mac) !== $expectedLength;'];
        yield 'a DER tag byte' => ['return ord($der[$offset]) !== $tag;'];
        yield 'an int cast' => ['return (int) $tag === $type;'];
        yield 'a tag length' => ['return $tagLength === $length;'];
        yield 'a hash algorithm\'s name' => ['return $hashAlgorithm === $algorithm;'];
        yield 'a JWK member that names an algorithm' => ['return $jwk[\'alg\'] === $alg;'];
        yield 'a verdict on a signature' => ['return $signatureVerifies === $expected;'];
        yield 'names with none of the words' => ['return $a === $b && strcmp($left, $right) < 0;'];
        yield 'words inside other words' => ['return $message === $stage || $image !== $storage || $design === $signer;'];
        yield 'a comparison in a string' => ['$text = \'if ($tag === $given)\';'];
        yield 'a comparison in a comment' => ["// \$tag === \$given\n\$x = 1;"];
        yield 'strcmp of public keys' => ['$first = strcmp($myPublicKey, $theirPublicKey) < 0;'];
    }

    /** @dataProvider constantTimeOrNotSecret */
    #[DataProvider('constantTimeOrNotSecret')]
    public function testTheScanLetsBeWhatIsConstantTimeOrNotASecret(string $code): void
    {
        self::assertSame([], (new SecretComparisonScanner())->scan("<?php\n\n" . $code . "\n"), $code);
    }

    /** @return iterable<string, array{string, string}> the audit's mutant of cbc-encrypt-then-mac.php: hash_equals(...) => its replacement */
    public static function cbcMutants(): iterable
    {
        yield '!==' => ['!hash_equals(%1$s, %2$s)', '%1$s !== %2$s'];
        yield '!=' => ['!hash_equals(%1$s, %2$s)', '%1$s != %2$s'];
        yield 'php-mutation.php\'s ===' => ['hash_equals(%1$s, %2$s)', '((%1$s) === (%2$s))'];
        yield 'php-mutation.php\'s ==' => ['hash_equals(%1$s, %2$s)', '((%1$s) == (%2$s))'];
        yield 'php-mutation.php\'s strncmp' => ['hash_equals(%1$s, %2$s)', '(strncmp(%1$s, %2$s, 16) === 0)'];
    }

    /** @dataProvider cbcMutants */
    #[DataProvider('cbcMutants')]
    public function testTheScanFailsOnTheAuditsMutantOfTheCbcRecipe(string $from, string $to): void
    {
        // Its 30 value tests pass with each of these; only the scan tells them from hash_equals().
        $arguments = ['cbc_hmac_tag($ivAndCiphertext, $associatedData, $authenticationKey)', 'substr($sealed, -32)'];
        $code = (string) file_get_contents(REPOSITORY . '/runners/snippets/cbc-encrypt-then-mac.php');
        $scanner = new SecretComparisonScanner();
        self::assertSame([], $scanner->scan($code));
        $mutant = str_replace(sprintf($from, ...$arguments), sprintf($to, ...$arguments), $code, $count);
        self::assertSame(1, $count, 'expected the recipe to check its tag with hash_equals() once');
        self::assertCount(1, $scanner->scan($mutant));
    }

    /** @return list<string> every PHP file of runners/snippets/, runners/src/ and runners/, relative to the repository, sorted */
    private static function phpFiles(): array
    {
        $files = array_map(static fn (string $path): string => 'runners/' . basename($path), (array) glob(REPOSITORY . '/runners/*.php'));
        foreach (['runners/snippets', 'runners/src'] as $directory) {
            $items = new RecursiveIteratorIterator(new RecursiveDirectoryIterator(REPOSITORY . '/' . $directory, FilesystemIterator::SKIP_DOTS));
            foreach ($items as $item) {
                if ($item->isFile() && $item->getExtension() === 'php') {
                    $files[] = $directory . '/' . substr($item->getPathname(), strlen(REPOSITORY . '/' . $directory) + 1);
                }
            }
        }
        sort($files);
        return $files;
    }
}
