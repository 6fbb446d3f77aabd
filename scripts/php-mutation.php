<?php

declare(strict_types=1);

/*
 * A small mutation pass for one PHP source file (Infection needs Packagist, which this project does
 * not use): each comparison, boolean, arithmetic operator, boolean literal and small integer literal
 * of the file is changed, one at a time, in a copy of the repository, and the named tests run
 * against it. A mutant is killed when they fail. Prints one line per mutant:
 *     killed <line>: <change>
 *     survived <line>: <change>
 * Usage: php scripts/php-mutation.php runners/src/Jws/CompactJws.php runners/tests/Jws/CompactJwsTest.php
 */

const SWAPS = [
    '===' => '!==', '!==' => '===', '==' => '!=', '!=' => '==',
    '<' => '<=', '<=' => '<', '>' => '>=', '>=' => '>',
    '&&' => '||', '||' => '&&', '+' => '-', '-' => '+', '*' => '/', '/' => '*',
];

function fail(string $message): never
{
    fwrite(STDERR, "error: {$message}\n");
    exit(2);
}

/** @return list<array{int, int, string, string}> offset, length, replacement, description */
function mutations(string $source): array
{
    $found = [];
    $offset = 0;
    $line = 1;
    foreach (token_get_all($source) as $token) {
        [$id, $text] = is_array($token) ? [$token[0], $token[1]] : [null, $token];
        $replacement = null;
        if (isset(SWAPS[$text]) && ($id === null || in_array($id, [T_IS_IDENTICAL, T_IS_NOT_IDENTICAL, T_IS_EQUAL,
            T_IS_NOT_EQUAL, T_IS_SMALLER_OR_EQUAL, T_IS_GREATER_OR_EQUAL, T_BOOLEAN_AND, T_BOOLEAN_OR], true))) {
            $replacement = SWAPS[$text];
        } elseif ($id === T_STRING && in_array(strtolower($text), ['true', 'false'], true)) {
            $replacement = strtolower($text) === 'true' ? 'false' : 'true';
        } elseif ($id === T_LNUMBER && (int) $text < 1000) {
            $replacement = (string) ((int) $text + 1);
        } elseif ($text === '!') {
            $replacement = '';
        }
        if ($replacement !== null) {
            $found[] = [$offset, strlen($text), $replacement, "{$line}: '{$text}' -> '{$replacement}'"];
        }
        $offset += strlen($text);
        $line += substr_count($text, "\n");
    }

    return $found;
}

function copyTree(string $from, string $to): void
{
    mkdir($to, 0777, true);
    $items = new RecursiveIteratorIterator(
        new RecursiveDirectoryIterator($from, FilesystemIterator::SKIP_DOTS),
        RecursiveIteratorIterator::SELF_FIRST,
    );
    foreach ($items as $item) {
        $target = $to . '/' . substr($item->getPathname(), strlen($from) + 1);
        $item->isDir() ? mkdir($target) : copy($item->getPathname(), $target);
    }
}

$arguments = array_slice($argv, 1);
if (count($arguments) !== 2) {
    fail('usage: php scripts/php-mutation.php SOURCE TEST (a test file or directory: PHPUnit 9 runs one)');
}
$repository = dirname(__DIR__);
[$file, $test] = $arguments;
if (!is_file("{$repository}/{$file}")) {
    fail("{$file}: no such file under {$repository}");
}
$work = sys_get_temp_dir() . '/php-mutation-' . bin2hex(random_bytes(4));
foreach (['runners', 'data', 'vectors'] as $directory) {
    copyTree("{$repository}/{$directory}", "{$work}/{$directory}");
}
$original = file_get_contents("{$repository}/{$file}");
$run = static function () use ($work, $test): bool {
    $command = ['phpunit', '-c', "{$work}/runners/phpunit.xml", '--stop-on-failure', '--do-not-cache-result', "{$work}/{$test}"];
    exec(implode(' ', array_map('escapeshellarg', $command)) . ' >/dev/null 2>&1', $output, $code);

    return $code === 0;
};
try {
    if (!$run()) {
        fail('the tests fail before any mutation');
    }
    foreach (mutations($original) as [$at, $length, $replacement, $description]) {
        $mutant = substr_replace($original, $replacement, $at, $length);
        file_put_contents("{$work}/{$file}", $mutant);
        exec('php -l ' . escapeshellarg("{$work}/{$file}") . ' >/dev/null 2>&1', $lint, $invalid);
        if ($invalid !== 0) {
            continue; // not valid PHP: no mutant
        }
        echo ($run() ? 'survived ' : 'killed ') . $description . "\n";
    }
} finally {
    exec('rm -rf ' . escapeshellarg($work));
}
