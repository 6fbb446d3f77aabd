<?php

declare(strict_types=1);

namespace PhpCryptoBench\Tests\Cli;

use PhpCryptoBench\Cli\Application;
use PHPUnit\Framework\TestCase;

final class ApplicationTest extends TestCase
{
    /** @return array{int, string, string} exit code, stdout, stderr */
    private function invoke(string ...$arguments): array
    {
        $stdout = fopen('php://memory', 'w+b');
        $stderr = fopen('php://memory', 'w+b');
        $code = (new Application(REPOSITORY, $stdout, $stderr))->run(['bench.php', ...$arguments]);
        rewind($stdout);
        rewind($stderr);
        return [$code, (string) stream_get_contents($stdout), (string) stream_get_contents($stderr)];
    }

    public function testListPrintsEachExperimentOnStdout(): void
    {
        [$code, $out, $err] = $this->invoke('list');
        self::assertSame(0, $code);
        self::assertStringStartsWith("aead\t", $out);
        self::assertSame('', $err);
    }

    public function testHelpIsTheDefault(): void
    {
        [$code, $out] = $this->invoke();
        self::assertSame(0, $code);
        self::assertStringContainsString('php runners/bench.php run [--profile quick|full]', $out);
    }

    /** @return iterable<string, array{list<string>, string}> */
    public static function usageErrors(): iterable
    {
        yield 'unknown command' => [['bench'], "bench.php: unknown command \"bench\"; expected one of: run, list, --help\n"];
        yield 'unknown option' => [['run', '--quick'], "bench.php: unknown option \"--quick\"; see --help\n"];
        yield 'unknown experiment' => [['run', '--only', 'rot13'], "bench.php: unknown experiment \"rot13\"; expected one of: aead, argon2, ec_keygen, jwt, symmetric\n"];
        yield 'list takes no options' => [['list', '--all'], "bench.php: unknown option \"--all\"; see --help\n"];
    }

    /**
     * @dataProvider usageErrors
     * @param list<string> $arguments
     */
    public function testUsageErrorsPrintOneLineAndExitTwo(array $arguments, string $expected): void
    {
        [$code, $out, $err] = $this->invoke(...$arguments);
        self::assertSame(2, $code);
        self::assertSame('', $out);
        self::assertSame($expected, $err);
    }
}
