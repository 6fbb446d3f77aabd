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

        // In a fresh PHP (the one running this test, same extensions): what including the file adds.
        $probe = <<<'PHP'
            $classes = get_declared_classes(); $constants = array_keys(get_defined_constants());
            $globals = array_keys($GLOBALS); $functions = get_defined_functions()['user'];
            ob_start();
            require $argv[1];
            $output = ob_get_clean();
            echo json_encode([
                'output' => $output,
                'classes' => array_values(array_diff(get_declared_classes(), $classes)),
                'constants' => array_values(array_diff(array_keys(get_defined_constants()), $constants)),
                'globals' => array_values(array_diff(array_keys($GLOBALS), $globals, ['classes', 'constants', 'globals', 'functions', 'output'])),
                'functions' => array_values(array_diff(get_defined_functions()['user'], $functions)),
            ]);
            PHP;
        $command = [PHP_BINARY, ...ChildPhp::iniArguments(), '-d', 'display_errors=stderr', '-r', $probe, SnippetTestCase::DIRECTORY . '/' . $file];
        $process = proc_open($command, [1 => ['pipe', 'w'], 2 => ['pipe', 'w']], $pipes);
        self::assertIsResource($process);
        $stdout = (string) stream_get_contents($pipes[1]);
        $stderr = (string) stream_get_contents($pipes[2]);
        fclose($pipes[1]);
        fclose($pipes[2]);
        self::assertSame(0, proc_close($process), $stderr);
        self::assertSame('', $stderr);
        $added = json_decode($stdout, true);
        self::assertIsArray($added, $stdout);
        self::assertSame(['output' => '', 'classes' => [], 'constants' => [], 'globals' => []], array_diff_key($added, ['functions' => true]));
        self::assertNotEmpty($added['functions']);
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
