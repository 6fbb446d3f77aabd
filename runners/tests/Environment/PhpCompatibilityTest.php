<?php

declare(strict_types=1);

namespace PhpCryptoBench\Tests\Environment;

use FilesystemIterator;
use PHPUnit\Framework\TestCase;
use RecursiveDirectoryIterator;
use RecursiveIteratorIterator;
use SplFileInfo;
use PHPUnit\Framework\Attributes\DataProvider;

/**
 * The runner supports PHP 8.1 to 8.4 (issue 12), and this machine has only 8.2: every PHP file under
 * runners/ is scanned for syntax newer than 8.1, calls newer than 8.1 outside PhpFeatures, and what
 * 8.2 to 8.4 print deprecation notices for. Each rule has a fixture proving it can fail.
 */
final class PhpCompatibilityTest extends TestCase
{
    /** The one file allowed to call functions newer than 8.1, each behind a PHP_VERSION_ID check. */
    private const VERSION_SWITCH = 'runners/src/Environment/PhpFeatures.php';

    public function testNoFileUnderRunnersNeedsMoreThanPhp81OrPrintsADeprecation(): void
    {
        $scanner = new CompatibilityScanner();
        $findings = [];
        $scanned = 0;
        foreach (self::phpFiles() as $path) {
            $scanned++;
            foreach ($scanner->scan((string) file_get_contents(REPOSITORY . '/' . $path), $path === self::VERSION_SWITCH) as $finding) {
                $findings[] = sprintf('%s:%d: %s: %s', $path, $finding['line'], $finding['rule'], $finding['detail']);
            }
        }
        self::assertGreaterThan(100, $scanned, 'expected to scan the whole runner');
        self::assertContains(self::VERSION_SWITCH, self::phpFiles());
        self::assertSame([], $findings, "PHP 8.1 to 8.4 must all run the runner without notices:\n" . implode("\n", $findings));
    }

    /** @return iterable<string, array{string, string}> rule => [fixture, the rule it breaks] */
    public static function fixtures(): iterable
    {
        yield 'readonly class' => ['final readonly class Point {}', CompatibilityScanner::READONLY_CLASS];
        yield 'standalone null type' => ['function f(): null { return null; }', CompatibilityScanner::STANDALONE_TYPE];
        yield 'standalone false type' => ['function f(false $x) {}', CompatibilityScanner::STANDALONE_TYPE];
        yield 'true type' => ['class C { public true $ok = true; }', CompatibilityScanner::STANDALONE_TYPE];
        yield 'false|null' => ['function f(): false|null { return null; }', CompatibilityScanner::STANDALONE_TYPE];
        yield 'DNF type' => ['function f((A&B)|null $x) {}', CompatibilityScanner::DNF_TYPE];
        yield 'DNF property type' => ['class C { private (A&B)|C $x; }', CompatibilityScanner::DNF_TYPE];
        yield 'constant in a trait' => ['trait T { public const LIMIT = 3; }', CompatibilityScanner::TRAIT_CONSTANT];
        yield 'typed class constant' => ['class C { const string NAME = "c"; }', CompatibilityScanner::TYPED_CONSTANT];
        yield 'enum ->value in a constant expression' => ['class C { const DEFAULT = Mode::Fast->value; }', CompatibilityScanner::FETCH_IN_CONSTANT];
        yield 'dynamic class constant fetch' => ['echo C::{$name};', CompatibilityScanner::DYNAMIC_CONSTANT_FETCH];
        yield 'property hook' => ['class C { public string $name { get => "c"; } }', CompatibilityScanner::PROPERTY_HOOK];
        yield 'promoted property hook' => ['class C { function __construct(public string $n { set => trim($value); }) {} }', CompatibilityScanner::PROPERTY_HOOK];
        yield 'asymmetric visibility' => ['class C { public private(set) int $n = 0; }', CompatibilityScanner::ASYMMETRIC_VISIBILITY];
        yield 'new without parentheses' => ['$n = new C()->name();', CompatibilityScanner::NEW_WITHOUT_PARENTHESES];
        yield 'function newer than 8.1' => ['$length = openssl_cipher_key_length("aes-128-gcm");', CompatibilityScanner::NEWER_FUNCTION];
        yield 'fully qualified function newer than 8.1' => ['namespace N; \json_validate("{}");', CompatibilityScanner::NEWER_FUNCTION];
        yield 'imported class newer than 8.1' => ['namespace N; use Random\Randomizer; $r = new Randomizer();', CompatibilityScanner::NEWER_CLASS];
        yield 'class newer than 8.1' => ['try {} catch (\DateMalformedStringException $e) {}', CompatibilityScanner::NEWER_CLASS];
        yield 'implicitly nullable parameter' => ['function f(string $s = null) {}', CompatibilityScanner::IMPLICITLY_NULLABLE];
        yield 'implicitly nullable promoted property' => ['class C { function __construct(private Clock $c = null) {} }', CompatibilityScanner::IMPLICITLY_NULLABLE];
        yield 'implicitly nullable closure parameter' => ['$f = static fn (array $a = NULL) => $a;', CompatibilityScanner::IMPLICITLY_NULLABLE];
        yield 'deprecated function' => ['echo utf8_encode("x");', CompatibilityScanner::DEPRECATED];
        yield 'deprecated constant' => ['error_reporting(E_ALL & ~E_STRICT);', CompatibilityScanner::DEPRECATED];
        yield '${} interpolation' => ['echo "${name}";', CompatibilityScanner::DEPRECATED];
        yield 'get_class() without an argument' => ['class C { function f() { return get_class(); } }', CompatibilityScanner::DEPRECATED];
        yield 'fputcsv without $escape' => ['fputcsv($out, $row, ",", \'"\');', CompatibilityScanner::DEPRECATED];
        yield 'str_getcsv without $escape' => ['$fields = str_getcsv($line);', CompatibilityScanner::DEPRECATED];
        yield 'SplFileObject::fgetcsv without $escape' => ['$row = $file->fgetcsv(",");', CompatibilityScanner::DEPRECATED];
    }

    /** @dataProvider fixtures */
    #[DataProvider('fixtures')]
    public function testEachRuleCatchesItsFixture(string $code, string $rule): void
    {
        $findings = (new CompatibilityScanner())->scan("<?php\n\n" . $code . "\n");
        self::assertSame([$rule], array_values(array_unique(array_column($findings, 'rule'))), json_encode($findings, JSON_PRETTY_PRINT) ?: '');
        self::assertSame(3, $findings[0]['line'], 'the line of the finding');
    }

    public function testPhp81CodeThatLooksAlikePasses(): void
    {
        $code = <<<'PHP'
            <?php
            declare(strict_types=1);
            namespace PhpCryptoBench\Fixture;
            use PhpCryptoBench\Harness\Timer as Clock;
            enum Mode: string { case Fast = 'fast'; const DEFAULT = self::Fast; }
            interface Named { const PREFIX = 'n'; }
            final class Point implements Named
            {
                public const ORIGIN = [0, 0];
                private static int $count = 0;
                public function __construct(
                    public readonly int $x = 0,
                    private readonly ?Clock $clock = null,
                    private Clock|null $other = null,
                    private mixed $anything = null,
                    private readonly Clock $fixed = new Clock(),
                ) {
                }
                public function pair(A&B $both, string|false $maybe, int ...$rest): static|false
                {
                    static $calls = 0;
                    $f = static fn (?array $a = null): ?array => $a;
                    $g = function (&$ref, $untyped = null) use ($f): string|int|null { return null; };
                    $h = strlen(...);
                    $p = (new self())->pair($both, false);
                    $name = self::class . static::class . get_class($this) . Point::class;
                    fputcsv($out, $row, ',', '"', '', "\n");
                    fgetcsv($in, null, ',', '"', '');
                    str_getcsv($line, escape: '');
                    $ok = function_exists('json_validate') && $this->json_validate('{}');
                    return match (true) { $x > 0 => $this, default => false };
                }
                public function readonly(): never { throw new \RuntimeException("{$this->x} and {$calls}"); }
            }
            PHP;
        self::assertSame([], (new CompatibilityScanner())->scan($code));
    }

    public function testOnlyTheVersionSwitchMayCallNewerFunctions(): void
    {
        $code = "<?php\nreturn PHP_VERSION_ID >= 80200 ? openssl_cipher_key_length('aes-128-gcm') : 16;\n";
        self::assertSame([], (new CompatibilityScanner())->scan($code, true));
        self::assertSame([CompatibilityScanner::NEWER_FUNCTION], array_column((new CompatibilityScanner())->scan($code), 'rule'));
    }

    /** @return list<string> paths relative to the repository, sorted */
    private static function phpFiles(): array
    {
        $root = (string) realpath(REPOSITORY);
        $files = [];
        $iterator = new RecursiveIteratorIterator(new RecursiveDirectoryIterator($root . '/runners', FilesystemIterator::SKIP_DOTS));
        foreach ($iterator as $file) {
            if ($file instanceof SplFileInfo && $file->getExtension() === 'php') {
                $files[] = substr($file->getPathname(), strlen($root) + 1);
            }
        }
        sort($files);
        return $files;
    }
}
