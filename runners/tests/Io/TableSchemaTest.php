<?php

declare(strict_types=1);

namespace PhpCryptoBench\Tests\Io;

use PhpCryptoBench\Exception\IoError;
use PhpCryptoBench\Io\TableSchema;
use PHPUnit\Framework\TestCase;
use PHPUnit\Framework\Attributes\DataProvider;

/** The CSV columns come from data/schema/tables/<experiment>.json; a broken schema directory is named, not half-read. */
final class TableSchemaTest extends TestCase
{
    private string $directory;

    protected function setUp(): void
    {
        $this->directory = sys_get_temp_dir() . '/pcb-tables-' . bin2hex(random_bytes(4));
        mkdir($this->directory);
    }

    protected function tearDown(): void
    {
        foreach (glob($this->directory . '/*') ?: [] as $path) {
            is_dir($path) ? rmdir($path) : unlink($path);
        }
        rmdir($this->directory);
    }

    /** @param array<string, mixed> $schema */
    private function write(string $file, array $schema): void
    {
        file_put_contents($this->directory . '/' . $file, json_encode($schema, JSON_THROW_ON_ERROR));
    }

    /**
     * @param list<string> $columns
     * @return array<string, mixed>
     */
    private static function resource(string $path, array $columns): array
    {
        $fields = array_map(static fn (string $name): array => ['name' => $name, 'type' => 'string', 'constraints' => ['required' => true]], $columns);
        return ['name' => basename($path, '.csv'), 'path' => $path, 'type' => 'table', 'schema' => ['fields' => $fields, 'missingValues' => [], 'primaryKey' => [$columns[0]]]];
    }

    public function testTheRepositorysSchemasGiveEachCsvItsColumnsInOrder(): void
    {
        $schema = TableSchema::load(REPOSITORY . '/data/schema/tables');
        self::assertSame(
            ['library', 'algorithm', 'operation', 'payload_bytes', 'aad_bytes', 'tag_bytes', 'nonce_bytes', 'sample', 'iterations', 'elapsed_ns', 'minor_faults'],
            $schema->columns('aead.csv'),
        );
        self::assertSame(['algorithm', 'block_bytes', 'bytes_per_second', 'tool_version'], $schema->columns('native.csv'));
        self::assertSame(['cipher', 'provider', 'status', 'detail'], $schema->columns('cipher_inventory.csv'), 'schema version 2: no security column');
    }

    public function testEveryFileAndEveryResourceInItIsRead(): void
    {
        $this->write('one.json', ['experiment' => 'one', 'resources' => [self::resource('a.csv', ['x', 'y']), self::resource('b.csv', ['z'])]]);
        $this->write('two.json', ['experiment' => 'two', 'resources' => [self::resource('c.csv', ['w', 'v'])]]);
        file_put_contents($this->directory . '/notes.txt', 'not a schema');

        $schema = TableSchema::load($this->directory);

        self::assertSame(['x', 'y'], $schema->columns('a.csv'));
        self::assertSame(['z'], $schema->columns('b.csv'));
        self::assertSame("w,v\n", $schema->table('c.csv')->toString());
        self::assertSame(['a.csv', 'b.csv'], $schema->tablesOf('one'), 'each experiment owns its tables, in declared order');
        self::assertSame(['c.csv'], $schema->tablesOf('two'));
    }

    public function testAFileNamedForAnotherExperimentIsRefused(): void
    {
        $this->write('one.json', ['experiment' => 'two', 'resources' => [self::resource('a.csv', ['x'])]]);
        $this->expectException(IoError::class);
        $this->expectExceptionMessage('one.json: expected "experiment": "one" (the file\'s name), got "two"');
        TableSchema::load($this->directory);
    }

    public function testAskingForAnUndeclaredExperimentNamesTheDeclaredOnes(): void
    {
        $this->write('one.json', ['experiment' => 'one', 'resources' => [self::resource('a.csv', ['x'])]]);
        $this->write('two.json', ['experiment' => 'two', 'resources' => [self::resource('b.csv', ['x'])]]);
        $this->expectException(IoError::class);
        $this->expectExceptionMessage('no table schema declares experiment three; expected one of: one, two');
        TableSchema::load($this->directory)->tablesOf('three');
    }

    public function testAMissingDirectoryIsNamed(): void
    {
        $this->expectException(IoError::class);
        $this->expectExceptionMessage('cannot read ' . $this->directory . '/absent: expected the directory of table schemas (one <experiment>.json per experiment), found none');
        TableSchema::load($this->directory . '/absent');
    }

    public function testADirectoryWithoutSchemasIsRefused(): void
    {
        $this->expectException(IoError::class);
        $this->expectExceptionMessage('cannot read ' . $this->directory . ': expected one <experiment>.json per experiment there, found no *.json file');
        TableSchema::load($this->directory);
    }

    public function testAFileThatIsNotJsonIsNamed(): void
    {
        file_put_contents($this->directory . '/broken.json', '{"resources": [');
        $this->expectException(IoError::class);
        $this->expectExceptionMessage('cannot read ' . $this->directory . '/broken.json: Syntax error');
        TableSchema::load($this->directory);
    }

    public function testAnUnreadableFileIsNamed(): void
    {
        // A directory named like a schema file cannot be read as one, even by root.
        mkdir($this->directory . '/unreadable.json');
        $this->expectException(IoError::class);
        $this->expectExceptionMessage('cannot read ' . $this->directory . '/unreadable.json: expected a readable JSON file');
        TableSchema::load($this->directory);
    }

    public function testAFileWithoutResourcesIsRefused(): void
    {
        $this->write('aead.json', ['experiment' => 'aead', 'tables' => []]);
        $this->expectException(IoError::class);
        $this->expectExceptionMessage('cannot read ' . $this->directory . '/aead.json: expected a non-empty "resources" list, got null');
        TableSchema::load($this->directory);
    }

    /** @return iterable<string, array{array<string, mixed>, string}> */
    public static function incompleteResources(): iterable
    {
        $resource = self::resource('a.csv', ['x', 'y']);
        yield 'no path' => [array_diff_key($resource, ['path' => true]), 'resource 1: expected a "path" and a non-empty "schema.fields" list'];
        yield 'no fields' => [['schema' => ['primaryKey' => ['x']]] + $resource, 'resource 1: expected a "path" and a non-empty "schema.fields" list'];
        yield 'an empty field list' => [['schema' => ['fields' => []]] + $resource, 'resource 1: expected a "path" and a non-empty "schema.fields" list'];
        yield 'a field without a name' => [['schema' => ['fields' => [['name' => 'x'], ['type' => 'integer']]]] + $resource, 'resource 1 (a.csv): field 1: expected a "name", got none'];
        yield 'not an object' => [['a.csv'], 'resource 1: expected a "path" and a non-empty "schema.fields" list'];
    }

    /**
     * @dataProvider incompleteResources
     * @param array<string, mixed> $broken
     */
    #[DataProvider('incompleteResources')]
    public function testAResourceWithoutPathOrFieldNamesIsRefused(array $broken, string $message): void
    {
        $this->write('one.json', ['experiment' => 'one', 'resources' => [self::resource('b.csv', ['z']), $broken]]);
        $this->expectException(IoError::class);
        $this->expectExceptionMessage('cannot read ' . $this->directory . '/one.json: ' . $message);
        TableSchema::load($this->directory);
    }

    public function testTwoFilesDeclaringOneCsvAreRefused(): void
    {
        $this->write('a_first.json', ['experiment' => 'a_first', 'resources' => [self::resource('shared.csv', ['x'])]]);
        $this->write('b_second.json', ['experiment' => 'b_second', 'resources' => [self::resource('shared.csv', ['y'])]]);
        $this->expectException(IoError::class);
        $this->expectExceptionMessage('cannot read ' . $this->directory . '/b_second.json: resource 0 declares shared.csv, already declared in a_first.json; expected each CSV in one file only');
        TableSchema::load($this->directory);
    }

    public function testAskingForAnUndeclaredTableNamesTheDeclaredOnes(): void
    {
        $this->write('one.json', ['experiment' => 'one', 'resources' => [self::resource('a.csv', ['x']), self::resource('b.csv', ['y'])]]);
        $this->expectException(IoError::class);
        $this->expectExceptionMessage('no table schema declares c.csv; expected one of: a.csv, b.csv');
        TableSchema::load($this->directory)->columns('c.csv');
    }
}
