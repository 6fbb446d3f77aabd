<?php

declare(strict_types=1);

namespace PhpCryptoBench\Tests\Support;

use RuntimeException;

/**
 * A stream (pcb-trickle://NAME) that reads and writes a few bytes per call, as a pipe or a socket may, or
 * whose reads or writes fail: what code that loops over fread() and fwrite() must survive. The bytes of
 * each NAME live in this class, so that a test reads back what was written.
 */
final class TrickleStream
{
    public const SCHEME = 'pcb-trickle';
    /** After this many failed calls the stream throws: a loop that ignores the failure ends, and fails its test. */
    private const FAILED_CALLS = 100;

    /** @var resource|null set by PHP */
    public $context;

    /** @var array<string, array{bytes: string, perCall: int, failing: string|null, failures: int, paused: bool}> */
    private static array $streams = [];
    private string $name = '';
    private int $position = 0;

    /**
     * A stream holding $bytes that moves at most $perCall bytes a call; $failing: 'read' (fread() gives
     * false, and then the end is reached), 'write 0' (fwrite() writes nothing) or 'write false' (fwrite() fails).
     *
     * @return resource
     */
    public static function open(string $bytes = '', int $perCall = 5, ?string $failing = null)
    {
        if (!in_array(self::SCHEME, stream_get_wrappers(), true)) {
            stream_wrapper_register(self::SCHEME, self::class);
        }
        $name = bin2hex(random_bytes(8));
        self::$streams[$name] = ['bytes' => $bytes, 'perCall' => $perCall, 'failing' => $failing, 'failures' => 0, 'paused' => false];
        $stream = fopen(self::SCHEME . '://' . $name, 'r+b');
        if ($stream === false) {
            throw new RuntimeException('could not open a ' . self::SCHEME . ' stream');
        }
        return $stream;
    }

    /** Everything written to the stream, and what it was opened with. */
    public static function contents($stream): string
    {
        return self::$streams[(string) parse_url(stream_get_meta_data($stream)['uri'], PHP_URL_HOST)]['bytes'];
    }

    public function stream_open(string $path, string $mode, int $options, ?string &$openedPath): bool
    {
        $this->name = (string) parse_url($path, PHP_URL_HOST);
        return isset(self::$streams[$this->name]);
    }

    public function stream_read(int $count): string|false
    {
        if ($this->fails('read')) {
            return false;
        }
        $part = substr(self::$streams[$this->name]['bytes'], $this->position, min($count, self::$streams[$this->name]['perCall']));
        $this->position += strlen($part);
        return $part;
    }

    public function stream_write(string $data): int|false
    {
        if ($this->fails('write 0')) {
            return 0;
        }
        if ($this->fails('write false')) {
            return false;
        }
        // PHP calls again at once for the rest, and stops at a call that writes nothing: so one fwrite()
        // writes one part, as a pipe that is full may.
        $state = &self::$streams[$this->name];
        if ($state['paused']) {
            $state['paused'] = false;
            return 0;
        }
        $part = substr($data, 0, $state['perCall']);
        $state['bytes'] .= $part;
        $state['paused'] = strlen($part) < strlen($data);
        return strlen($part);
    }

    public function stream_eof(): bool
    {
        // A failed read ends the stream (a loop that takes false for no bytes then stops).
        if (self::$streams[$this->name]['failing'] === 'read') {
            return self::$streams[$this->name]['failures'] > 0;
        }
        return $this->position >= strlen(self::$streams[$this->name]['bytes']);
    }

    private function fails(string $how): bool
    {
        if (self::$streams[$this->name]['failing'] !== $how) {
            return false;
        }
        if (++self::$streams[$this->name]['failures'] > self::FAILED_CALLS) {
            throw new RuntimeException(sprintf('%s: called %d times after failing', $how, self::FAILED_CALLS));
        }
        return true;
    }
}
