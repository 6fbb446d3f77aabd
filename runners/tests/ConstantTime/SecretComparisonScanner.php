<?php

declare(strict_types=1);

namespace PhpCryptoBench\Tests\ConstantTime;

/**
 * Finds, in PHP source, a MAC, tag, signature or hash compared in variable time: with ==, ===, !=, !==,
 * <> or <=>, or with strcmp() and the like (each returns at the first byte that differs, so the time of a
 * failed check tells an attacker how much of a forged tag was right). hash_equals() is the comparison to
 * use. Scanned with token_get_all(): no parse, no execution.
 *
 * What counts as secret is decided by names, since tokens carry no types:
 *
 * - A name is split into words (snake_case and camelCase): $expectedTag is "expected", "tag";
 *   cbc_hmac_tag is "cbc", "hmac", "tag"; hash_hmac is "hash", "hmac".
 * - It names a secret-dependent value when one of its words is in SECRET_WORDS, unless its last word is in
 *   DESCRIBING_WORDS: $tagLength is the tag's length and $hashAlgorithm an algorithm's name, both public;
 *   hash_equals and $signatureVerifies are verdicts, not the value.
 * - An operand is secret when it is such a variable, property or array element (the last name of the chain
 *   decides: $jwk['alg'] is "alg", $parts[2] is "parts", $this->tag is "tag"), or a call of a function or
 *   method so named (hash_hmac(), $hasher->digest()), or a call in PASS_THROUGH (substr, bin2hex, base64,
 *   case and trim) of such an operand, or an expression (concatenation, arithmetic, ?:, ??) with such a part.
 *   A call of any other function is not secret: strlen($tag) is a length.
 * - A comparison is reported when one operand is secret and the other is neither public nor a number.
 *   Public: a literal (number, string, true, false, null, an array of literals) or a constant (SOME_CONSTANT,
 *   self::X, \NS\X, Foo::class); comparing with a value everyone knows tells nothing of the secret, which
 *   is why `$tag === SODIUM_CRYPTO_SECRETSTREAM_XCHACHA20POLY1305_TAG_FINAL` (a tag *type*) and
 *   `$signature === ''` pass. A number: a call in NUMBER_FUNCTIONS (ord, strlen, count, ...) or an operand
 *   under an int, float or bool cast, !, - or ~; numbers compare in one step whatever they were computed
 *   from, which is why `strlen($mac) !== $expected` and `ord($der[$offset]) !== $tag` (a DER tag byte) pass.
 *
 * What it does not see: a secret under a name outside these words (`$a === $b`), match and switch (both
 * compare with ===), in_array() and array_search(). Keys and shared secrets are left out on purpose: an
 * attacker does not submit them to be compared, and the words "key" and "secret" would report array keys,
 * public keys and known-answer checks of the benchmark. The names in this project follow the words; each
 * rule has a fixture in ConstantTimeCompareTest proving it can fail, or that it lets be what it should.
 */
final class SecretComparisonScanner
{
    /**
     * Words that name a value an attacker may submit to be checked against one computed from a secret
     * (a forged MAC or tag learnt a byte at a time), or a digest of a secret: the timing-oracle cases.
     * Plurals included ($tags[$i] is a tag).
     */
    public const SECRET_WORDS = [
        'mac', 'macs', 'hmac', 'hmacs', 'tag', 'tags', 'signature', 'signatures', 'sig', 'sigs',
        'digest', 'digests', 'hash', 'hashes', 'checksum', 'checksums',
        // PHP's functions that return one, whose names have none of the words above (sodium_crypto_auth()
        // and sodium_crypto_onetimeauth() return MACs).
        'md5', 'sha1', 'generichash', 'shorthash', 'onetimeauth', 'auth',
    ];

    /** A name ending in one of these describes a secret value, or judges it, without being it. */
    public const DESCRIBING_WORDS = [
        'length', 'len', 'size', 'bytes', 'bits', 'count', 'offset', 'position', 'index',
        'name', 'names', 'alg', 'algo', 'algos', 'algorithm', 'algorithms', 'type', 'kind', 'mode', 'format', 'encoding', 'id',
        'equals', 'verify', 'verifies', 'verified', 'valid', 'ok', 'matches', 'supported', 'available', 'file', 'files', 'path',
    ];

    /** Functions that compare strings and stop at the first difference (substr_compare: its first two arguments). */
    public const COMPARING_FUNCTIONS = ['strcmp', 'strcasecmp', 'strncmp', 'strncasecmp', 'strnatcmp', 'strnatcasecmp', 'strcoll', 'substr_compare'];

    /** Functions (and methods) whose result is their first argument in another form: as secret as it is. */
    public const PASS_THROUGH = [
        'substr', 'bin2hex', 'hex2bin', 'base64_encode', 'base64_decode', 'strtolower', 'strtoupper', 'trim', 'ltrim', 'rtrim',
        'str_pad', 'strrev', 'strval', 'sodium_bin2hex', 'sodium_hex2bin', 'sodium_bin2base64', 'sodium_base642bin', 'encode', 'decode',
    ];

    private const COMPARISONS = [T_IS_EQUAL, T_IS_NOT_EQUAL, T_IS_IDENTICAL, T_IS_NOT_IDENTICAL, T_SPACESHIP];

    /** Tokens that end an operand of a comparison (operators that bind more loosely, and statement ends). */
    private const OPERAND_ENDS = [
        ',', ';', '=', '?', ':', '&', '|', '^', '{', '}', T_BOOLEAN_AND, T_BOOLEAN_OR, T_LOGICAL_AND, T_LOGICAL_OR, T_LOGICAL_XOR,
        T_COALESCE, T_DOUBLE_ARROW, T_RETURN, T_ECHO, T_PRINT, T_THROW, T_YIELD, T_YIELD_FROM, T_CASE, T_ELSE, T_OPEN_TAG,
        T_PLUS_EQUAL, T_MINUS_EQUAL, T_MUL_EQUAL, T_DIV_EQUAL, T_CONCAT_EQUAL, T_MOD_EQUAL, T_AND_EQUAL, T_OR_EQUAL,
        T_XOR_EQUAL, T_SL_EQUAL, T_SR_EQUAL, T_POW_EQUAL, T_COALESCE_EQUAL,
        T_IS_EQUAL, T_IS_NOT_EQUAL, T_IS_IDENTICAL, T_IS_NOT_IDENTICAL, T_SPACESHIP,
    ];

    /** Binary operators that join the parts of one operand: a part that is secret makes it secret. */
    private const JOINS = [
        '.', '+', '-', '*', '/', '%', '<', '>', '?', ':', T_POW, T_SL, T_SR, T_IS_SMALLER_OR_EQUAL, T_IS_GREATER_OR_EQUAL, T_COALESCE, T_INSTANCEOF,
    ];

    /** What an operand prefixes without changing which value it is. */
    private const PREFIXES = ['@', T_STRING_CAST];

    /** What makes a number (or a bool) of an operand: comparing one takes the same time whatever its value. */
    private const NUMBER_PREFIXES = ['!', '-', '+', '~', T_INT_CAST, T_BOOL_CAST, T_DOUBLE_CAST];

    /** Functions that return a number: comparing one with === takes one step, whatever it was computed from. */
    public const NUMBER_FUNCTIONS = ['ord', 'strlen', 'mb_strlen', 'count', 'intdiv', 'intval', 'floatval', 'abs', 'crc32'];

    private const NAMES = [T_STRING, T_NAME_QUALIFIED, T_NAME_FULLY_QUALIFIED, T_NAME_RELATIVE];
    private const MEMBER = [T_OBJECT_OPERATOR, T_NULLSAFE_OBJECT_OPERATOR, T_DOUBLE_COLON];

    private const PUBLIC = 'public';
    private const NUMBER = 'number';
    private const SECRET = 'secret';
    private const OTHER = 'other';

    /** @var list<array{int|string, string, int, int}> the significant tokens: id (a one-character token: itself), text, line, offset */
    private array $tokens = [];
    private string $code = '';
    /** @var array<int, int> each bracket's index => its partner's */
    private array $partner = [];

    /**
     * @return list<array{line: int, code: string, operator: string}> each comparison of a secret in variable time
     */
    public function scan(string $code): array
    {
        $this->code = $code;
        $this->tokens = [];
        $offset = 0;
        $line = 1;
        foreach (token_get_all($code) as $token) {
            [$id, $text] = is_string($token) ? [$token, $token] : [$token[0], $token[1]];
            if (!in_array($id, [T_WHITESPACE, T_COMMENT, T_DOC_COMMENT], true)) {
                $this->tokens[] = [$id, $text, $line, $offset];
            }
            $offset += strlen($text);
            $line += substr_count($text, "\n");
        }
        $this->pair();
        $findings = [];
        foreach ($this->tokens as $i => [$id, $text]) {
            if (in_array($id, self::COMPARISONS, true)) {
                $left = $this->operand($i, -1);
                $right = $this->operand($i, 1);
                if ($this->variableTime([$left, $right])) {
                    $findings[] = ['line' => $this->tokens[$i][2], 'code' => $this->text($left[0], $right[1]), 'operator' => $text];
                }
            } elseif (in_array($id, self::NAMES, true) && in_array(strtolower(ltrim($text, '\\')), self::COMPARING_FUNCTIONS, true) && $this->isCall($i)) {
                $open = $i + 1;
                $arguments = array_slice($this->arguments($open, $this->partner[$open]), 0, 2);
                if (count($arguments) === 2 && $this->variableTime($arguments)) {
                    $findings[] = ['line' => $this->tokens[$i][2], 'code' => $this->text($i, $this->partner[$open]), 'operator' => strtolower(ltrim($text, '\\'))];
                }
            }
        }
        return $findings;
    }

    /** @param list<array{int, int}> $operands */
    private function variableTime(array $operands): bool
    {
        $secrecy = array_map(fn (array $range): string => $this->secrecy(...$range), $operands);
        return in_array(self::SECRET, $secrecy, true) && array_intersect($secrecy, [self::PUBLIC, self::NUMBER]) === [];
    }

    /** Whether the name's words say it holds a MAC, tag, signature or hash (see the class comment). */
    public static function namesSecret(string $name): bool
    {
        $words = array_values(array_filter(array_map('strtolower', (array) preg_split('/[_\\\\$]+|(?<=[a-z0-9])(?=[A-Z])/', $name)), static fn (string $w): bool => $w !== ''));
        return $words !== [] && array_intersect($words, self::SECRET_WORDS) !== [] && !in_array(end($words), self::DESCRIBING_WORDS, true);
    }

    private function pair(): void
    {
        $this->partner = [];
        $open = [];
        $inString = false;
        foreach ($this->tokens as $i => [$id]) {
            if ($id === '"' || $id === T_START_HEREDOC || $id === T_END_HEREDOC) {
                // An interpolated string is one value, from its opening quote to its closing one.
                if ($inString) {
                    $start = (int) array_pop($open);
                    [$this->partner[$start], $this->partner[$i]] = [$i, $start];
                } else {
                    $open[] = $i;
                }
                $inString = !$inString;
            } elseif (in_array($id, ['(', '[', '{', T_CURLY_OPEN, T_DOLLAR_OPEN_CURLY_BRACES, T_ATTRIBUTE], true)) {
                $open[] = $i;
            } elseif (in_array($id, [')', ']', '}'], true) && $open !== []) {
                $start = (int) array_pop($open);
                [$this->partner[$start], $this->partner[$i]] = [$i, $start];
            }
        }
    }

    /**
     * The operand of the comparison at $operator on one side ($step -1: left, +1: right).
     *
     * @return array{int, int} its first and last token (first > last: none)
     */
    private function operand(int $operator, int $step): array
    {
        $edge = $operator;
        for ($i = $operator + $step; isset($this->tokens[$i]); $i += $step) {
            $id = $this->tokens[$i][0];
            $opens = $step > 0 ? ['(', '[', '"', T_START_HEREDOC] : [')', ']', '"', T_END_HEREDOC];
            if (in_array($id, $opens, true) && isset($this->partner[$i])) {
                $edge = $i = $this->partner[$i];
                continue;
            }
            if (in_array($id, ['(', '[', ')', ']'], true) || in_array($id, self::OPERAND_ENDS, true)) {
                break;
            }
            $edge = $i;
        }
        return $step > 0 ? [$operator + 1, $edge] : [$edge, $operator - 1];
    }

    private function secrecy(int $from, int $to): string
    {
        while ($from <= $to && in_array($this->tokens[$from][0], self::PREFIXES, true)) {
            $from++;
        }
        if ($from <= $to && in_array($this->tokens[$from][0], self::NUMBER_PREFIXES, true)) {
            return self::NUMBER;
        }
        if ($from < $to && $this->tokens[$from][0] === '(' && ($this->partner[$from] ?? -1) === $to) {
            return $this->secrecy($from + 1, $to - 1);
        }
        if ($from > $to) {
            return self::OTHER;
        }
        $parts = $this->split($from, $to, self::JOINS);
        if (count($parts) > 1) {
            $each = array_map(fn (array $part): string => $this->secrecy(...$part), $parts);
            return in_array(self::SECRET, $each, true) ? self::SECRET : (array_unique($each) === [self::PUBLIC] ? self::PUBLIC : self::OTHER);
        }
        [$id, $text] = $this->tokens[$from];
        if ($from === $to) {
            return match (true) {
                in_array($id, [T_LNUMBER, T_DNUMBER, T_CONSTANT_ENCAPSED_STRING, T_LINE, T_FILE, T_DIR, T_CLASS_C, T_FUNC_C, T_METHOD_C, T_NS_C], true),
                in_array($id, self::NAMES, true) => self::PUBLIC,
                $id === T_VARIABLE => self::namesSecret($text) ? self::SECRET : self::OTHER,
                default => self::OTHER,
            };
        }
        if ($to === $from + 2 && in_array($id, [...self::NAMES, T_STATIC], true) && $this->tokens[$from + 1][0] === T_DOUBLE_COLON && $this->isLabel($to)) {
            return self::PUBLIC; // a class constant, or Foo::class
        }
        if (($id === '[' && ($this->partner[$from] ?? -1) === $to) || ($id === T_ARRAY && ($this->partner[$from + 1] ?? -1) === $to)) {
            $open = $id === '[' ? $from : $from + 1;
            $items = array_map(fn (array $item): array => array_slice($this->split($item[0], $item[1], [T_DOUBLE_ARROW]), -1)[0], $this->arguments($open, $to));
            $each = array_map(fn (array $item): string => $this->secrecy(...$item), $items);
            return in_array(self::SECRET, $each, true) ? self::SECRET : (array_diff($each, [self::PUBLIC]) === [] ? self::PUBLIC : self::OTHER);
        }
        return $this->chainSecrecy($from, $to);
    }

    /** A variable, name or call followed by any number of [index], ->member, ::member and (arguments). */
    private function chainSecrecy(int $from, int $to): string
    {
        [$id, $text] = $this->tokens[$from];
        $i = $from;
        $name = null;
        $call = null; // [name, "(" index] when the chain's last step is a call
        if ($id === T_VARIABLE) {
            $name = $text;
        } elseif (in_array($id, [...self::NAMES, T_STATIC], true)) {
            $name = $text; // a function's name, or a class before ::
        } elseif ($id === '(' && isset($this->partner[$from])) {
            $inner = $this->secrecy($from + 1, $this->partner[$from] - 1);
            $name = $inner === self::SECRET ? 'tag' : '';
            $i = $this->partner[$from];
        } else {
            return self::OTHER;
        }
        while ($i < $to) {
            $next = $this->tokens[$i + 1][0];
            if ($next === '(' && isset($this->partner[$i + 1])) {
                $call = [(string) $name, $i + 1];
                $i = $this->partner[$i + 1];
            } elseif ($next === '[' && isset($this->partner[$i + 1])) {
                $close = $this->partner[$i + 1];
                // $jwk['alg'] is named by its key; $tags[$i] and $parts[2] by the array.
                if ($close === $i + 3 && $this->tokens[$i + 2][0] === T_CONSTANT_ENCAPSED_STRING) {
                    $name = substr($this->tokens[$i + 2][1], 1, -1);
                } elseif ($call !== null) {
                    $name = $this->callSecrecy(...$call) === self::SECRET ? 'tag' : '';
                }
                $call = null;
                $i = $close;
            } elseif (in_array($next, self::MEMBER, true) && $i + 2 <= $to && ($this->tokens[$i + 2][0] === T_VARIABLE || $this->isLabel($i + 2))) {
                $name = $this->tokens[$i + 2][1];
                $call = null;
                $i += 2;
            } else {
                return self::OTHER; // not a chain this scanner reads
            }
        }
        if ($call !== null) {
            return $this->callSecrecy(...$call);
        }
        return self::namesSecret((string) $name) ? self::SECRET : ($this->isLabel($to) && $this->tokens[$to - 1][0] === T_DOUBLE_COLON ? self::PUBLIC : self::OTHER);
    }

    private function callSecrecy(string $name, int $open): string
    {
        $short = strtolower((string) preg_replace('/^.*\\\\/', '', $name));
        if (in_array($short, self::NUMBER_FUNCTIONS, true)) {
            return self::NUMBER;
        }
        if (self::namesSecret($short)) {
            return self::SECRET;
        }
        $arguments = $this->arguments($open, $this->partner[$open]);
        return in_array($short, self::PASS_THROUGH, true) && $arguments !== [] ? ($this->secrecy(...$arguments[0]) === self::SECRET ? self::SECRET : self::OTHER) : self::OTHER;
    }

    /**
     * The range split at the top-level tokens given.
     *
     * @param list<int|string> $at
     * @return list<array{int, int}>
     */
    private function split(int $from, int $to, array $at): array
    {
        $parts = [];
        $start = $from;
        for ($i = $from; $i <= $to; $i++) {
            $id = $this->tokens[$i][0];
            if (in_array($id, ['(', '[', '{', '"', T_START_HEREDOC, T_CURLY_OPEN, T_DOLLAR_OPEN_CURLY_BRACES], true) && isset($this->partner[$i])) {
                $i = $this->partner[$i];
            } elseif (in_array($id, $at, true) && $i > $from && !in_array($this->tokens[$i - 1][0], [...self::JOINS, ...self::PREFIXES], true)) {
                $parts[] = [$start, $i - 1];
                $start = $i + 1;
            }
        }
        $parts[] = [$start, $to];
        return $parts;
    }

    /**
     * The arguments (or array items) between the bracket at $open and its partner $close.
     *
     * @return list<array{int, int}>
     */
    private function arguments(int $open, int $close): array
    {
        if ($close === $open + 1) {
            return [];
        }
        return array_values(array_filter($this->split($open + 1, $close - 1, [',']), static fn (array $range): bool => $range[0] <= $range[1]));
    }

    /** Whether the token is a name (a constant's or a member's may be a keyword: self::FINAL, $x->list). */
    private function isLabel(int $i): bool
    {
        return is_int($this->tokens[$i][0]) && preg_match('/^[A-Za-z_\x80-\xff][A-Za-z0-9_\x80-\xff]*$/', $this->tokens[$i][1]) === 1;
    }

    private function isCall(int $i): bool
    {
        return ($this->tokens[$i + 1][0] ?? null) === '(' && !in_array($this->tokens[$i - 1][0] ?? null, [...self::MEMBER, T_FUNCTION, T_NEW, T_CONST], true);
    }

    /** The source from token $from to token $to, on one line. */
    private function text(int $from, int $to): string
    {
        $start = $this->tokens[$from][3];
        return (string) preg_replace('/\s+/', ' ', substr($this->code, $start, $this->tokens[$to][3] + strlen($this->tokens[$to][1]) - $start));
    }
}
