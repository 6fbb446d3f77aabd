<?php

declare(strict_types=1);

namespace PhpCryptoBench\Tests\Snippets;

use PhpCryptoBench\Run\ChildPhp;
use PHPUnit\Framework\TestCase;
use ReflectionClass;
use PHPUnit\Framework\Attributes\DataProvider;

/**
 * Every file of runners/snippets/ (the PHP the site shows) has a test class here that executes it,
 * named after it (SnippetTestCase::classTesting), and each file is safe to include where it is
 * pasted: strict types, functions only, no output, no class, constant or global variable.
 */
final class EverySnippetIsTestedTest extends TestCase
{
    public function testEverySnippetFileHasATestThatExecutesIt(): void
    {
        $files = self::snippetFiles(SnippetTestCase::DIRECTORY);
        self::assertGreaterThanOrEqual(8, count($files), 'expected the snippets the site shows');
        self::assertSame([], self::untested($files, self::testedSnippets()), 'snippets without a test class in runners/tests/Snippets/');
    }

    public function testEveryTestNamesAFileThatExistsAndIsNamedAfterIt(): void
    {
        $files = self::snippetFiles(SnippetTestCase::DIRECTORY);
        foreach (self::testedSnippets() as $class => $snippet) {
            self::assertContains($snippet, $files, $class . ' tests a file that is not in runners/snippets/');
            self::assertSame(SnippetTestCase::classTesting($snippet), $class, 'a test class is named after its file');
        }
    }

    public function testAFileWithoutATestIsReported(): void
    {
        $directory = sys_get_temp_dir() . '/pcb-snippets-' . bin2hex(random_bytes(4));
        mkdir($directory);
        touch($directory . '/aes-256-gcm.php');
        touch($directory . '/new-snippet.php');
        touch($directory . '/notes.txt');
        try {
            $files = self::snippetFiles($directory);
        } finally {
            array_map('unlink', glob($directory . '/*') ?: []);
            rmdir($directory);
        }
        self::assertSame(['aes-256-gcm.php', 'new-snippet.php'], $files);
        self::assertSame(['new-snippet.php'], self::untested($files, self::testedSnippets()));
        self::assertSame(__NAMESPACE__ . '\\NewSnippetTest', SnippetTestCase::classTesting('new-snippet.php'));
    }

    /** @return iterable<string, array{string}> */
    public static function snippets(): iterable
    {
        foreach (self::snippetFiles(SnippetTestCase::DIRECTORY) as $file) {
            yield $file => [$file];
        }
    }

    /** @dataProvider snippets */
    #[DataProvider('snippets')]
    public function testIncludingASnippetDefinesFunctionsOnlyAndPrintsNothing(string $file): void
    {
        $source = (string) file_get_contents(SnippetTestCase::DIRECTORY . '/' . $file);
        self::assertStringStartsWith("<?php\n\ndeclare(strict_types=1);\n", $source);
        self::assertStringNotContainsString('?>', $source, 'no closing tag, so no stray output after it');

        $included = self::includeEach()[$file] ?? null;
        self::assertIsArray($included, 'the probe reported nothing for ' . $file);
        self::assertSame(0, $included['status'], $included['stderr']);
        self::assertSame('', $included['stderr']);
        $added = json_decode($included['stdout'], true);
        self::assertIsArray($added, $included['stdout']);
        self::assertSame(['output' => '', 'classes' => [], 'constants' => [], 'globals' => []], array_diff_key($added, ['functions' => true]));
        self::assertNotEmpty($added['functions']);
    }

    /**
     * What including each snippet adds, each in a fresh PHP (the one running this test, same extensions
     * and settings): one PHP starts, then forks a child per snippet, so each include starts from the same
     * untouched state a PHP started for it would have, without paying PHP's startup once per snippet.
     * The parent writes a NUL-delimited exit status after each child's stdout, and a NUL after its stderr.
     */
    private const INCLUDE_EACH = <<<'PHP'
        foreach (array_slice($argv, 1) as $__probe) {
            $__probe = ['file' => $__probe, 'pid' => pcntl_fork(), 'status' => 0];
            if ($__probe['pid'] === 0) {
                $classes = get_declared_classes(); $constants = array_keys(get_defined_constants());
                $globals = array_keys($GLOBALS); $functions = get_defined_functions()['user'];
                ob_start();
                require $__probe['file'];
                $output = ob_get_clean();
                echo json_encode([
                    'output' => $output,
                    'classes' => array_values(array_diff(get_declared_classes(), $classes)),
                    'constants' => array_values(array_diff(array_keys(get_defined_constants()), $constants)),
                    'globals' => array_values(array_diff(array_keys($GLOBALS), $globals, ['classes', 'constants', 'globals', 'functions', 'output'])),
                    'functions' => array_values(array_diff(get_defined_functions()['user'], $functions)),
                ]);
                exit(0);
            }
            $__probe['exit'] = $__probe['pid'] === -1 || pcntl_waitpid($__probe['pid'], $__probe['status']) === -1 ? -1
                : (pcntl_wifexited($__probe['status']) ? pcntl_wexitstatus($__probe['status']) : 128 + pcntl_wtermsig($__probe['status']));
            echo "\0", $__probe['exit'], "\0";
            fwrite(STDERR, "\0");
        }
        PHP;

    /** @var array<string, array{status: int, stdout: string, stderr: string}>|null */
    private static ?array $included = null;

    /** @return array<string, array{status: int, stdout: string, stderr: string}> snippet file => its child's exit status and output */
    private static function includeEach(): array
    {
        if (self::$included !== null) {
            return self::$included;
        }
        $files = self::snippetFiles(SnippetTestCase::DIRECTORY);
        $paths = array_map(static fn (string $file): string => SnippetTestCase::DIRECTORY . '/' . $file, $files);
        $command = [PHP_BINARY, ...ChildPhp::iniArguments(), '-d', 'display_errors=stderr', '-r', self::INCLUDE_EACH, ...$paths];
        $process = proc_open($command, [1 => ['pipe', 'w'], 2 => ['pipe', 'w']], $pipes);
        self::assertIsResource($process);
        $stdout = (string) stream_get_contents($pipes[1]);
        $stderr = (string) stream_get_contents($pipes[2]);
        fclose($pipes[1]);
        fclose($pipes[2]);
        self::assertSame(0, proc_close($process), $stderr);
        $errors = explode("\0", $stderr);
        self::assertSame(count($files), preg_match_all('/\G(.*?)\0(-?\d+)\0/s', $stdout, $runs, PREG_SET_ORDER), $stdout . $stderr);
        $included = [];
        foreach ($files as $index => $file) {
            $included[$file] = ['status' => (int) $runs[$index][2], 'stdout' => $runs[$index][1], 'stderr' => $errors[$index]];
        }
        return self::$included = $included;
    }

    /** @return list<string> the PHP files in $directory, by name */
    private static function snippetFiles(string $directory): array
    {
        $files = array_map('basename', glob($directory . '/*.php') ?: []);
        sort($files);
        return $files;
    }

    /**
     * @param list<string> $files
     * @param array<string, string> $tested
     * @return list<string>
     */
    private static function untested(array $files, array $tested): array
    {
        return array_values(array_diff($files, $tested));
    }

    /** @return array<string, string> test class => the snippet it executes, for every SnippetTestCase here */
    private static function testedSnippets(): array
    {
        $tested = [];
        foreach (glob(__DIR__ . '/*Test.php') ?: [] as $path) {
            $class = __NAMESPACE__ . '\\' . basename($path, '.php');
            if (class_exists($class) && is_subclass_of($class, SnippetTestCase::class) && !(new ReflectionClass($class))->isAbstract()) {
                $tested[$class] = $class::snippet();
            }
        }
        return $tested;
    }
}
