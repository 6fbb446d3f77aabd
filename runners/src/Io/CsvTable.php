<?php

declare(strict_types=1);

namespace PhpCryptoBench\Io;

use LogicException;
use PhpCryptoBench\Exception\IoError;

/** A CSV with a fixed header; every row must give exactly the declared columns. */
final class CsvTable
{
    /** @var list<list<string>> */
    private array $rows = [];

    /** @param list<string> $columns */
    public function __construct(private readonly array $columns)
    {
    }

    /** @param array<string, bool|int|float|string> $row */
    public function add(array $row): void
    {
        $missing = array_diff($this->columns, array_keys($row));
        $extra = array_diff(array_keys($row), $this->columns);
        if ($missing !== [] || $extra !== []) {
            // A programming error in an experiment module, not bad input: keep the trace.
            throw new LogicException(sprintf(
                'CSV row expected columns [%s], missing [%s], unexpected [%s]',
                implode(',', $this->columns),
                implode(',', $missing),
                implode(',', $extra),
            ));
        }
        $this->rows[] = array_map(static fn (string $column): string => self::cell($row[$column]), $this->columns);
    }

    public function count(): int
    {
        return count($this->rows);
    }

    /** @return list<array<string, string>> the rows as written: each cell as its CSV text, by column */
    public function records(): array
    {
        return array_map(fn (array $row): array => array_combine($this->columns, $row), $this->rows);
    }

    private static function cell(bool|int|float|string $value): string
    {
        return match (true) {
            is_bool($value) => $value ? 'true' : 'false',
            is_float($value) => sprintf('%.6F', $value),
            default => (string) $value,
        };
    }

    public function toString(): string
    {
        $stream = fopen('php://memory', 'w+b');
        fputcsv($stream, $this->columns, ',', '"', '', "\n");
        foreach ($this->rows as $row) {
            fputcsv($stream, $row, ',', '"', '', "\n");
        }
        rewind($stream);
        $csv = (string) stream_get_contents($stream);
        fclose($stream);
        return $csv;
    }

    /**
     * Rows of a CSV this class wrote, checked against the columns it must have.
     *
     * @param list<string> $columns
     * @return list<array<string, string>>
     * @throws IoError when the file cannot be read or its header is not $columns
     */
    public static function read(string $path, array $columns): array
    {
        $handle = @fopen($path, 'rb') ?: throw IoError::cannotRead($path, error_get_last()['message'] ?? 'cannot open');
        try {
            $header = fgetcsv($handle, null, ',', '"', '');
            if ($header !== $columns) {
                throw IoError::cannotRead($path, sprintf('expected columns [%s], found [%s]', implode(',', $columns), implode(',', is_array($header) ? $header : [])));
            }
            $rows = [];
            while (($fields = fgetcsv($handle, null, ',', '"', '')) !== false) {
                if (count($fields) !== count($columns)) {
                    throw IoError::cannotRead($path, sprintf('row %d has %d fields, expected %d', count($rows) + 2, count($fields), count($columns)));
                }
                $rows[] = array_combine($columns, array_map('strval', $fields));
            }
            return $rows;
        } finally {
            fclose($handle);
        }
    }

    public function writeTo(string $path): void
    {
        AtomicFile::write($path, $this->toString());
    }
}
