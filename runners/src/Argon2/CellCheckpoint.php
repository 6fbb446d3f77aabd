<?php

declare(strict_types=1);

namespace PhpCryptoBench\Argon2;

use PhpCryptoBench\Exception\IoError;
use PhpCryptoBench\Io\AtomicFile;
use PhpCryptoBench\Io\CsvTable;

/**
 * The Argon2 rows measured so far, rewritten whole after every cell: the full grid takes most of
 * an hour, and a run killed near its end should not measure it all again. `--resume` reads the
 * file back and measures only the cells it lacks; finishing writes the experiment's CSV and
 * removes the checkpoint. Its name starts with a dot because it is work in progress, not a result.
 */
final class CellCheckpoint
{
    public const FILE = '.argon2.checkpoint.csv';

    /** @param array<string, true> $done the keys of the cells already measured */
    private function __construct(
        private readonly string $path,
        private readonly CsvTable $table,
        private array $done,
    ) {
    }

    /**
     * The checkpoint in $directory, or an empty one.
     *
     * @param list<string> $columns the CSV's columns, from the schema
     * @param list<Argon2Cell> $grid the cells this run measures; a checkpoint from another grid is refused
     * @throws IoError when the checkpoint cannot be read or holds a cell outside $grid
     */
    public static function open(string $directory, array $columns, array $grid): self
    {
        $path = $directory . '/' . self::FILE;
        $table = new CsvTable($columns);
        $done = [];
        if (!is_file($path)) {
            return new self($path, $table, $done);
        }
        $known = array_flip(array_map(static fn (Argon2Cell $cell): string => self::keyOf($cell->key()), $grid));
        foreach (CsvTable::read($path, $columns) as $row) {
            $key = self::keyOf($row);
            if (!isset($known[$key])) {
                throw IoError::cannotRead($path, sprintf('it holds cell %s, which this run\'s grid does not have; move the file away to measure the grid again', $key));
            }
            $table->add($row);
            $done[$key] = true;
        }
        return new self($path, $table, $done);
    }

    public function has(Argon2Cell $cell): bool
    {
        return isset($this->done[self::keyOf($cell->key())]);
    }

    public function cellsDone(): int
    {
        return count($this->done);
    }

    /**
     * Adds one cell's rows and rewrites the checkpoint, so the cell survives a kill from here on.
     *
     * @param list<array<string, bool|int|float|string>> $rows
     */
    public function record(Argon2Cell $cell, array $rows): void
    {
        foreach ($rows as $row) {
            $this->table->add($row);
        }
        $this->done[self::keyOf($cell->key())] = true;
        AtomicFile::write($this->path, $this->table->toString());
    }

    /** @return list<array<string, string>> every row so far, as CSV text */
    public function records(): array
    {
        return $this->table->records();
    }

    /** Writes every row to $csvPath (atomically), then removes the checkpoint. */
    public function complete(string $csvPath): void
    {
        $this->table->writeTo($csvPath);
        if (is_file($this->path) && !@unlink($this->path)) {
            throw IoError::cannotWrite($this->path, 'could not remove the finished checkpoint: ' . (error_get_last()['message'] ?? 'unknown error'));
        }
    }

    /** @param array<string, mixed> $row a cell key or a CSV row */
    private static function keyOf(array $row): string
    {
        return sprintf('%s/%s m=%s p=%s t=%s', $row['interface'], $row['variant'], $row['memory_kib'], $row['threads'], $row['time_cost']);
    }
}
