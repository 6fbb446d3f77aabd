<?php

declare(strict_types=1);

namespace PhpCryptoBench\Tests\Run;

use PhpCryptoBench\Environment\EnvironmentProbe;
use PhpCryptoBench\Run\ChildPhp;
use PHPUnit\Framework\TestCase;

/** A child PHP is started as the PHP its parent is: binary, php.ini or none, extensions, settings. */
final class ChildPhpTest extends TestCase
{
    /**
     * Runs $script in a PHP started with $ini (after loading the runner's classes) and decodes its JSON.
     *
     * @param list<string> $ini
     * @return mixed
     */
    private static function inPhp(array $ini, string $script): mixed
    {
        $code = 'require $argv[1] . "/runners/bootstrap.php"; ' . $script;
        $process = proc_open([PHP_BINARY, ...$ini, '-r', $code, REPOSITORY], [0 => ['file', '/dev/null', 'r'], 1 => ['pipe', 'w'], 2 => ['pipe', 'w']], $pipes);
        self::assertIsResource($process);
        $output = (string) stream_get_contents($pipes[1]);
        $errors = (string) stream_get_contents($pipes[2]);
        fclose($pipes[1]);
        fclose($pipes[2]);
        self::assertSame(0, proc_close($process), $errors);
        return json_decode($output, true, 64, JSON_THROW_ON_ERROR);
    }

    /** What a child started with ChildPhp::command reports of itself, against the parent's own probe. */
    private const COMPARE = <<<'PHP'
        $probe = new PhpCryptoBench\Environment\EnvironmentProbe();
        $child = PhpCryptoBench\Run\ChildPhp::command(['-r', 'require $argv[1] . "/runners/bootstrap.php"; echo json_encode((new PhpCryptoBench\Environment\EnvironmentProbe())->process("child"));', $argv[1]]);
        $process = proc_open($child, [0 => ['pipe', 'r'], 1 => ['pipe', 'w']], $pipes, null, PhpCryptoBench\Run\ChildPhp::environment());
        $measured = json_decode((string) stream_get_contents($pipes[1]), true);
        fclose($pipes[1]);
        fclose($pipes[0]);
        proc_close($process);
        echo json_encode([
            'ini' => PhpCryptoBench\Run\ChildPhp::iniArguments(),
            'parent' => $probe->process('runner'),
            'child' => $measured,
            'differences' => PhpCryptoBench\Environment\EnvironmentProbe::differences($probe->process('runner'), $measured),
        ]);
        PHP;

    public function testAParentWithoutPhpIniStartsAChildWithoutAndWithoutMcrypt(): void
    {
        $result = self::inPhp(['-n'], self::COMPARE);

        self::assertSame('-n', $result['ini'][0]);
        self::assertNotContains('extension=mcrypt', $result['ini']);
        self::assertNull($result['child']['php']['extensions']['mcrypt']);
        self::assertSame([], $result['differences']);
    }

    public function testAnExtensionAndASettingFromTheParentsCommandLineArePassedOn(): void
    {
        if (!is_file(ini_get('extension_dir') . '/mcrypt.so')) {
            self::markTestSkipped('the mcrypt extension is not installed');
        }
        $result = self::inPhp(['-n', '-d', 'extension=mcrypt', '-d', 'memory_limit=77M'], self::COMPARE);

        self::assertSame(['-n', '-d', 'extension=mcrypt'], array_slice($result['ini'], 0, 3));
        self::assertContains('memory_limit=77M', $result['ini']);
        self::assertNotNull($result['child']['php']['extensions']['mcrypt']);
        self::assertSame('77M', $result['child']['php']['memory_limit']);
        self::assertSame([], $result['differences']);
    }

    public function testAParentWithPhpIniStartsAChildWithTheSameFile(): void
    {
        $loaded = php_ini_loaded_file();
        if ($loaded === false) {
            self::markTestSkipped('this PHP read no php.ini');
        }
        $result = self::inPhp(['-c', $loaded], self::COMPARE);

        self::assertSame(['-c', $loaded], array_slice($result['ini'], 0, 2));
        self::assertSame($result['parent']['php'], $result['child']['php']);
        self::assertSame([], $result['differences']);
    }

    public function testOnlyTheVariablesAnExperimentDeclaresChange(): void
    {
        putenv('OPENSSL_CONF=/etc/ssl/from-the-parent.cnf');
        putenv('PHPCB_SOMETHING_ELSE=kept');
        try {
            $environment = ChildPhp::environment(['OPENSSL_CONF' => '/repo/runners/openssl-legacy.cnf']);
        } finally {
            putenv('OPENSSL_CONF');
            putenv('PHPCB_SOMETHING_ELSE');
        }

        self::assertSame('/repo/runners/openssl-legacy.cnf', $environment['OPENSSL_CONF'], 'the declared value wins over an inherited one');
        self::assertSame('kept', $environment['PHPCB_SOMETHING_ELSE']);
        $inherited = getenv();
        unset($inherited['OPENSSL_CONF'], $inherited['PHPCB_SOMETHING_ELSE']);
        $extra = array_diff_key($environment, $inherited, ['OPENSSL_CONF' => 1, 'PHPCB_SOMETHING_ELSE' => 1]);
        self::assertSame([], array_diff(array_keys($extra), ['PHPCB_PARENT_PIPE']), 'nothing else is added but the parent watch');
    }

    public function testDifferencesNameTheFieldAndBothValuesButNotTheDeclaredLegacyProvider(): void
    {
        $probe = new EnvironmentProbe();
        $runner = $probe->process('runner');
        $child = $runner;
        $child['libraries']['openssl_legacy_provider'] = !$runner['libraries']['openssl_legacy_provider'];
        self::assertSame([], EnvironmentProbe::differences($runner, $child));

        $child['php']['extensions']['mcrypt'] = '1.0.5';
        $runner['php']['extensions']['mcrypt'] = null;
        $child['php']['memory_limit'] = '77M';
        $runner['php']['memory_limit'] = '-1';
        self::assertSame(
            ["php.memory_limit: runner '-1', measuring process '77M'", "php.extensions.mcrypt: runner absent, measuring process '1.0.5'"],
            EnvironmentProbe::differences($runner, $child),
        );
    }
}
