<?php

declare(strict_types=1);

/*
 * A mutation pass for one PHP source file (Infection needs Packagist, which this project does not
 * use). Its mutators are modelled on Infection's list: boundaries and negated comparisons, strict
 * comparisons made loose (=== to ==, hash_equals to === or ==, strcmp to strcasecmp), lengths checked one
 * way only, && and || swapped, a condition or one operand of && / || removed, an if negated, ! removed,
 * arithmetic and integer and boolean constants changed, casts and calls removed, `throw` removed,
 * isset / empty / array_key_exists swapped, the order of an array union or array_merge swapped,
 * trim / substr / str_pad and the like unwrapped, regexes loosened (^ or $ or a flag removed, a
 * character class made `.`), an array item or match arm removed, `instanceof` made true or false.
 *
 * Each mutant is written, one at a time, into a copy of the repository (runners/, data/schema/, vectors/),
 * and the named tests (one or more files or directories, made one suite) run against it (PHPUnit, stop
 * on the first failure, stopped after 10 times the suite's own time or 60 s, whichever is longer, which
 * counts as killed: a mutant that loops). A mutant is killed when they fail; one that is not valid PHP
 * is no mutant. Prints one line per mutant:
 *     killed <line>: <Mutator> '<from>' -> '<to>'  by <the first failing test>
 *     survived <line>: <Mutator> '<from>' -> '<to>'
 * A description that would repeat within the file gets " #2", " #3", ... in source order.
 *
 * Usage: php scripts/php-mutation.php [--list] [--jobs N] SOURCE TEST...
 *   e.g. php scripts/php-mutation.php runners/src/Jws/CompactJws.php runners/tests/Jws
 *        php scripts/php-mutation.php runners/snippets/aes-256-gcm.php runners/tests/Snippets/Aes256GcmTest.php runners/tests/ConstantTime
 *   --list prints the mutants ("mutant <description>") without running anything.
 */

/** A mutant's tests are stopped (and it counts as killed) after this many times the suite's own time, or 60 s: wide, so that a busy machine does not pass for a loop. */
const TIMEOUT_FACTOR = 10;
const BOUNDARY = ['<' => '<=', '<=' => '<', '>' => '>=', '>=' => '>'];
const NEGATION = ['===' => '!==', '!==' => '===', '==' => '!=', '!=' => '==', '<' => '>=', '<=' => '>', '>' => '<=', '>=' => '<'];
const LOOSE = ['===' => '==', '!==' => '!='];
const LENGTH_LOOSENED = ['!==' => ['<', '>'], '===' => ['<=', '>=']];
const ARITHMETIC = ['+' => '-', '-' => '+', '*' => '/', '/' => '*', '%' => '*', '&' => '|', '|' => '&', '^' => '&', '<<' => '>>', '>>' => '<<', '++' => '--', '--' => '++'];
const LENGTH_FUNCTIONS = ['strlen', 'count', 'mb_strlen'];
/** Infection's Unwrap* mutators: the call replaced by the argument it transforms (0-based). */
const UNWRAP = [
    'ltrim' => 0, 'rtrim' => 0, 'trim' => 0, 'strtolower' => 0, 'strtoupper' => 0, 'substr' => 0,
    'str_pad' => 0, 'str_repeat' => 0, 'strtr' => 0, 'array_filter' => 0, 'array_unique' => 0,
    'array_values' => 0, 'array_merge' => 0, 'array_reverse' => 0, 'str_replace' => 2, 'ucfirst' => 0,
];
const LOOSER_FUNCTIONS = ['strcmp' => 'strcasecmp', 'strncmp' => 'strncasecmp'];
const REGEX_FUNCTIONS = ['preg_match', 'preg_match_all', 'preg_replace', 'preg_split', 'preg_replace_callback'];
const CASTS = [T_INT_CAST, T_STRING_CAST, T_BOOL_CAST, T_DOUBLE_CAST, T_ARRAY_CAST];
const NAMES = [T_STRING, T_NAME_QUALIFIED, T_NAME_FULLY_QUALIFIED, T_NAME_RELATIVE, T_STATIC];
/** Where an operand of && or || ends, besides an unmatched bracket (?: and ?? bind more loosely). */
const OPERAND_BOUNDARY = [',', ';', '?', ':', '=', T_COALESCE, T_DOUBLE_ARROW, T_RETURN, T_THROW, T_ECHO, T_LOGICAL_AND, T_LOGICAL_OR,
    T_LOGICAL_XOR, T_PLUS_EQUAL, T_MINUS_EQUAL, T_CONCAT_EQUAL, T_COALESCE_EQUAL, T_OPEN_TAG];

function fail(string $message): never
{
    fwrite(STDERR, "error: {$message}\n");
    exit(2);
}

/** The tokens of one file, with what the mutators ask of them: neighbours, matching brackets, operand extents. */
final class Source
{
    /** @var list<PhpToken> */
    public readonly array $tokens;
    /** @var array<int, int> each bracket's index => its partner's */
    public readonly array $partner;
    /** @var list<array{int, int, string, string, int}> start offset, end offset, replacement, mutator, line */
    public array $mutants = [];
    /** @var array<int, true> the tokens of declared types: function signatures, catch clauses */
    public readonly array $inType;

    public function __construct(public readonly string $code)
    {
        $this->tokens = PhpToken::tokenize($code);
        $partner = [];
        $open = [];
        foreach ($this->tokens as $i => $token) {
            if (self::char($token, '([{') || $token->is([T_CURLY_OPEN, T_DOLLAR_OPEN_CURLY_BRACES, T_ATTRIBUTE])) {
                $open[] = $i;
            } elseif (self::char($token, ')]}')) {
                $start = array_pop($open) ?? fail("unbalanced {$token->text} on line {$token->line}");
                $partner[$start] = $i;
                $partner[$i] = $start;
            }
        }
        $this->partner = $partner;
        $inType = [];
        foreach ($this->tokens as $i => $token) {
            if ($token->is(T_CATCH)) {
                $open = (int) $this->next($i);
                $inType += array_fill_keys(range($open, $partner[$open]), true);
            } elseif ($token->is([T_FUNCTION, T_FN])) {
                // From the keyword to the body (or ; or =>), past the parameters' brackets.
                for ($k = $i; $k < count($this->tokens) && !$this->tokens[$k]->is(['{', ';', T_DOUBLE_ARROW]); $k++) {
                    $inType[$k] = true;
                    if (self::char($this->tokens[$k], '(')) {
                        $inType += array_fill_keys(range($k, $partner[$k]), true);
                        $k = $partner[$k];
                    }
                }
            }
        }
        $this->inType = $inType;
    }

    /**
     * Whether the token is one of these one-character tokens: its text alone would also match a
     * piece of a string ("(" in "a ($b)" is string text, not a bracket).
     */
    public static function char(PhpToken $token, string $chars): bool
    {
        return strlen($token->text) === 1 && $token->id === ord($token->text) && str_contains($chars, $token->text);
    }

    public function prev(int $i): ?int
    {
        for ($i--; $i >= 0; $i--) {
            if (!$this->tokens[$i]->isIgnorable()) {
                return $i;
            }
        }
        return null;
    }

    public function next(int $i): ?int
    {
        for ($i++, $n = count($this->tokens); $i < $n; $i++) {
            if (!$this->tokens[$i]->isIgnorable()) {
                return $i;
            }
        }
        return null;
    }

    /** PhpToken::is(), with a one-character kind matched only by that token (see char()). */
    public function is(?int $i, int|string|array $kind): bool
    {
        if ($i === null) {
            return false;
        }
        $token = $this->tokens[$i];
        foreach ((array) $kind as $one) {
            if (is_int($one) ? $token->id === $one : (strlen($one) === 1 ? self::char($token, $one) : $token->text === $one)) {
                return true;
            }
        }
        return false;
    }

    /** The source text of tokens $from..$to (inclusive). */
    public function text(int $from, int $to): string
    {
        return substr($this->code, $this->tokens[$from]->pos, $this->end($to) - $this->tokens[$from]->pos);
    }

    public function end(int $i): int
    {
        return $this->tokens[$i]->pos + strlen($this->tokens[$i]->text);
    }

    public function add(int $from, int $to, string $replacement, string $mutator): void
    {
        $this->mutants[] = [$this->tokens[$from]->pos, $this->end($to), $replacement, $mutator, $this->tokens[$from]->line];
    }

    /** Whether token $i ends a value (so that a following + - & is binary). */
    public function endsValue(?int $i): bool
    {
        return $i !== null && ($this->tokens[$i]->is([T_VARIABLE, T_LNUMBER, T_DNUMBER, T_CONSTANT_ENCAPSED_STRING, ')', ']', '"', ...NAMES]));
    }

    /** The first token of the postfix expression (variable, name, call, index, property chain, group) that ends at $i. */
    public function chainStart(int $i): int
    {
        while (true) {
            if ($this->is($i, [')', ']'])) {
                $open = $this->partner[$i];
                $before = $this->prev($open);
                if ($this->endsValue($before) && !$this->is($before, [T_CONSTANT_ENCAPSED_STRING, T_LNUMBER])) {
                    $i = $before;
                    continue;
                }
                return $open;
            }
            $before = $this->prev($i);
            if ($this->is($before, [T_OBJECT_OPERATOR, T_NULLSAFE_OBJECT_OPERATOR, T_DOUBLE_COLON])) {
                $i = $this->prev($before);
                continue;
            }
            return $this->is($before, T_NEW) ? $before : $i;
        }
    }

    /** The last token of the postfix expression that starts at $i. */
    public function chainEnd(int $i): int
    {
        $end = $this->is($i, ['(', '[']) ? $this->partner[$i] : $i;
        while (true) {
            $after = $this->next($end);
            if ($this->is($after, ['(', '['])) {
                $end = $this->partner[$after];
            } elseif ($this->is($after, [T_OBJECT_OPERATOR, T_NULLSAFE_OBJECT_OPERATOR, T_DOUBLE_COLON])) {
                $end = $this->next($after);
            } else {
                return $end;
            }
        }
    }

    /**
     * The operand of the && or || at $operator on one side ($step -1: left, +1: right): up to an
     * unmatched bracket, a looser operator, or the same operator (each operand of a chain alone);
     * an && inside an || operand stays in it.
     *
     * @return array{int, int} first and last token
     */
    public function logicalOperand(int $operator, int $step): array
    {
        $stops = $this->tokens[$operator]->is(T_BOOLEAN_AND) ? [T_BOOLEAN_AND, T_BOOLEAN_OR] : [T_BOOLEAN_OR];
        $last = $operator;
        for ($i = $operator + $step; $i >= 0 && $i < count($this->tokens); $i += $step) {
            $token = $this->tokens[$i];
            if ($token->isIgnorable()) {
                continue;
            }
            if (self::char($token, $step > 0 ? '([{' : ')]}') || ($step > 0 && $token->is([T_CURLY_OPEN, T_DOLLAR_OPEN_CURLY_BRACES]))) {
                $last = $i = $this->partner[$i];
                continue;
            }
            if (self::char($token, '([{)]}') || $this->is($i, [...OPERAND_BOUNDARY, ...$stops])) {
                break;
            }
            $last = $i;
        }
        return $step > 0 ? [$this->next($operator), $last] : [$last, $this->prev($operator)];
    }

    /**
     * The arguments of the call whose "(" is at $open, each as its first and last token.
     *
     * @return list<array{int, int}>
     */
    public function arguments(int $open): array
    {
        $close = $this->partner[$open];
        $arguments = [];
        $start = null;
        for ($i = $open + 1; $i < $close; $i++) {
            if ($this->tokens[$i]->isIgnorable()) {
                continue;
            }
            if (self::char($this->tokens[$i], ',')) {
                if ($start !== null) {
                    $arguments[] = [$start, $this->prev($i)];
                }
                $start = null;
                continue;
            }
            $start ??= $i;
            if (isset($this->partner[$i]) && $this->partner[$i] > $i) {
                $i = $this->partner[$i];
            }
        }
        if ($start !== null) {
            $arguments[] = [$start, $this->prev($close)];
        }
        return $arguments;
    }

    /** Whether the name at $i is a call of a function (not a method, a declaration or a constant). */
    public function isFunctionCall(int $i): bool
    {
        return $this->is($this->next($i), '(') && !$this->is($this->prev($i), [T_OBJECT_OPERATOR, T_NULLSAFE_OBJECT_OPERATOR, T_DOUBLE_COLON, T_FUNCTION, T_NEW, T_CONST]);
    }

    /** Whether the bracket "[" at $i opens an array literal (not an index, not a destructuring target). */
    public function isArrayLiteral(int $i): bool
    {
        $before = $this->prev($i);
        if (!$this->is($i, '[') || ($this->endsValue($before) && !$this->is($before, T_STATIC)) || $this->is($before, T_AS)) {
            return false;
        }
        if ($this->is($before, T_DOUBLE_ARROW) && $this->is($this->prev((int) $this->prev($before)), T_AS)) {
            return false; // foreach (... as $key => [$a, $b])
        }
        return !$this->is($this->next($this->partner[$i]), '=');
    }
}

function mutate(Source $s): void
{
    $tokens = $s->tokens;
    $inDeclare = -1;
    foreach ($tokens as $i => $token) {
        if ($token->is(T_DECLARE)) {
            $inDeclare = $s->partner[$s->next($i)];
        }
        // String text is never an operator, even when it is one character: "(" in "a ($b)".
        if ($i <= $inDeclare || $token->isIgnorable() || $token->is([T_ENCAPSED_AND_WHITESPACE, T_INLINE_HTML])) {
            continue;
        }
        $text = $token->text;
        $prev = $s->prev($i);
        $next = $s->next($i);
        $isComparison = $token->is([T_IS_IDENTICAL, T_IS_NOT_IDENTICAL, T_IS_EQUAL, T_IS_NOT_EQUAL, T_IS_SMALLER_OR_EQUAL, T_IS_GREATER_OR_EQUAL])
            || (in_array($text, ['<', '>'], true) && $s->endsValue($prev));
        if ($isComparison) {
            if (isset(BOUNDARY[$text])) {
                $s->add($i, $i, BOUNDARY[$text], 'Boundary');
            }
            $s->add($i, $i, NEGATION[$text], 'Negation');
            if (isset(LOOSE[$text])) {
                $s->add($i, $i, LOOSE[$text], 'LooseComparison');
            }
            $measured = static fn (?int $at): bool => $at !== null && (in_array(strtolower($tokens[$at]->text), LENGTH_FUNCTIONS, true)
                || ($s->is($at, ')') && in_array(strtolower($tokens[(int) $s->prev($s->partner[$at])]->text), LENGTH_FUNCTIONS, true)));
            if (isset(LENGTH_LOOSENED[$text]) && ($measured($prev) || $measured($next))) {
                foreach (LENGTH_LOOSENED[$text] as $looser) {
                    $s->add($i, $i, $looser, 'LengthLoosened');
                }
            }
        } elseif ($token->is([T_BOOLEAN_AND, T_BOOLEAN_OR])) {
            $and = $token->is(T_BOOLEAN_AND);
            $s->add($i, $i, $and ? '||' : '&&', 'LogicalOperator');
            foreach ([-1, 1] as $side) {
                [$from, $to] = $s->logicalOperand($i, $side);
                $s->add($from, $to, $and ? 'true' : 'false', 'ConditionRemoved');
            }
        } elseif ($text === '!') {
            $s->add($i, $i, '', 'LogicalNot');
        } elseif ($token->is([T_IF, T_ELSEIF]) && $s->is($next, '(')) {
            $close = $s->partner[$next];
            $s->add($next, $close, '(false)', 'ConditionRemoved');
            $s->add($next, $close, '(!' . $s->text($next, $close) . ')', 'IfNegation');
        } elseif (isset(ARITHMETIC[$text]) && ($token->is([T_INC, T_DEC, T_SL, T_SR]) || (strlen($text) === 1 && $s->endsValue($prev)))) {
            $isReference = $text === '&' && (!$s->endsValue($prev) || isset($s->inType[$i]));
            if (!isset($s->inType[$i]) && !$isReference) {
                $s->add($i, $i, ARITHMETIC[$text], 'Arithmetic');
            }
            if ($text === '+' && $next !== null && $prev !== null) {
                $left = $s->chainStart($prev);
                $right = $s->chainEnd($next);
                $bounded = $s->is($s->prev($left), ['=', '(', ',', T_RETURN, T_DOUBLE_ARROW]) && $s->is($s->next($right), [';', ',', ')', ']']);
                if ($bounded && ($s->isArrayLiteral($left) || $s->isArrayLiteral($next))) {
                    $s->add($left, $right, $s->text($next, $right) . ' + ' . $s->text($left, $prev), 'MergeOrder');
                }
            }
        } elseif ($token->is(T_LNUMBER)) {
            $value = intval($text, 0);
            $format = static fn (int $n): string => str_starts_with(strtolower($text), '0x') ? '0x' . dechex($n) : (string) $n;
            $s->add($i, $i, $format($value + 1), 'Integer');
            if ($value > 0) {
                $s->add($i, $i, $format($value - 1), 'Integer');
            }
        } elseif ($token->is(T_STRING) && in_array(strtolower($text), ['true', 'false'], true) && !isset($s->inType[$i]) && !$s->is($prev, [T_DOUBLE_COLON, T_OBJECT_OPERATOR])) {
            $s->add($i, $i, strtolower($text) === 'true' ? 'false' : 'true', 'Boolean');
        } elseif ($token->is(CASTS)) {
            $s->add($i, $i, '', 'CastRemoved');
        } elseif ($token->is(T_THROW)) {
            $s->add($i, $i, '', 'ThrowRemoved');
        } elseif ($token->is([T_ISSET, T_EMPTY]) && $s->is($next, '(')) {
            $s->add($i, $i, $token->is(T_ISSET) ? '!empty' : '!isset', 'IssetEmpty');
        } elseif ($token->is(T_INSTANCEOF) && $prev !== null && $next !== null) {
            $left = $s->chainStart($prev);
            foreach (['true', 'false'] as $value) {
                $s->add($left, $next, $value, 'InstanceOf');
            }
        } elseif ($token->is(T_MATCH) && $s->is($next, '(')) {
            $body = $s->next($s->partner[$next]);
            foreach ($s->arguments($body) as [$from, $to]) {
                $s->add($from, $s->is($s->next($to), ',') ? (int) $s->next($to) : $to, '', 'MatchArmRemoved');
            }
        } elseif ($text === '[' && $s->isArrayLiteral($i)) {
            foreach ($s->arguments($i) as [$from, $to]) {
                $s->add($from, $s->is($s->next($to), ',') ? (int) $s->next($to) : $to, '', 'ArrayItemRemoved');
            }
        } elseif ($token->is(NAMES) && $s->isFunctionCall($i)) {
            mutateCall($s, $i);
        }
        if ($token->is([...NAMES, T_VARIABLE]) && $s->is($prev, [';', '{', '}', T_OPEN_TAG])) {
            removeCallStatement($s, $i);
        }
    }
}

/** Function-call mutators: unwrapping, looser comparisons, swapped merges, isset for array_key_exists, loosened regexes. */
function mutateCall(Source $s, int $i): void
{
    $name = strtolower(ltrim($s->tokens[$i]->text, '\\'));
    $open = (int) $s->next($i);
    $close = $s->partner[$open];
    $arguments = $s->arguments($open);
    $argument = static fn (int $n): string => $s->text(...$arguments[$n]);
    if (isset(UNWRAP[$name]) && isset($arguments[UNWRAP[$name]])) {
        $s->add($i, $close, $argument(UNWRAP[$name]), 'Unwrap');
    }
    if (isset(LOOSER_FUNCTIONS[$name])) {
        $s->add($i, $i, LOOSER_FUNCTIONS[$name], 'LooseComparison');
    }
    if ($name === 'hash_equals' && count($arguments) === 2) {
        // In brackets: !hash_equals($a, $b) becomes !(($a) === ($b)), i.e. $a !== $b, not (!$a) === $b (always false).
        foreach (['===', '=='] as $operator) {
            $s->add($i, $close, '((' . $argument(0) . ") {$operator} (" . $argument(1) . '))', 'LooseComparison');
        }
        $s->add($i, $close, '(strncmp(' . $argument(0) . ', ' . $argument(1) . ', 16) === 0)', 'LooseComparison');
    }
    if ($name === 'array_merge' && count($arguments) === 2) {
        $s->add($i, $close, 'array_merge(' . $argument(1) . ', ' . $argument(0) . ')', 'MergeOrder');
    }
    if ($name === 'array_key_exists' && count($arguments) === 2) {
        $s->add($i, $close, 'isset(' . $argument(1) . '[' . $argument(0) . '])', 'IssetEmpty');
    }
    if (in_array($name, REGEX_FUNCTIONS, true) && isset($arguments[0]) && $arguments[0][0] === $arguments[0][1] && $s->is($arguments[0][0], T_CONSTANT_ENCAPSED_STRING)) {
        $at = $arguments[0][0];
        foreach (loosenedRegexes($s->tokens[$at]->text) as [$loosened, $what]) {
            $s->add($at, $at, $loosened, "Regex ({$what})");
        }
    }
}

/**
 * The pattern literal with its ^ or $ anchor removed, a flag removed, or a character class made `.`.
 *
 * @return list<array{string, string}> the literal, and what was loosened
 */
function loosenedRegexes(string $literal): array
{
    $quote = $literal[0];
    $pattern = substr($literal, 1, -1);
    $delimiter = $pattern[0] ?? '';
    $end = strrpos($pattern, $delimiter);
    if ($delimiter === '' || $end === false || $end === 0) {
        return [];
    }
    $body = substr($pattern, 1, $end - 1);
    $flags = substr($pattern, $end + 1);
    $make = static fn (string $newBody, string $newFlags): string => $quote . $delimiter . $newBody . $delimiter . $newFlags . $quote;
    $found = [];
    if (str_starts_with($body, '^')) {
        $found[] = [$make(substr($body, 1), $flags), '^ removed'];
    }
    if (str_ends_with($body, '$') && !str_ends_with($body, '\\$')) {
        $found[] = [$make(substr($body, 0, -1), $flags), '$ removed'];
    }
    foreach (str_split($flags) as $k => $flag) {
        if ($flag !== '') {
            $found[] = [$make($body, substr_replace($flags, '', $k, 1)), "flag {$flag} removed"];
        }
    }
    if (preg_match_all('/\[(?:\\\\.|[^\]\\\\])+\]/', $body, $classes, PREG_OFFSET_CAPTURE) > 0) {
        foreach ($classes[0] as [$class, $offset]) {
            $found[] = [$make(substr_replace($body, '.', $offset, strlen($class)), $flags), "{$class} as ."];
        }
    }
    return $found;
}

/** CallRemoved (Infection's FunctionCallRemoval, MethodCallRemoval): a statement that is only a call, removed. */
function removeCallStatement(Source $s, int $start): void
{
    $i = $start;
    $end = $s->chainEnd($start);
    if (!$s->is($end, ')') || !$s->is($s->next($end), ';')) {
        return;
    }
    for ($k = $start; $k < $end; $k++) {
        if (Source::char($s->tokens[$k], '=') || $s->tokens[$k]->is(T_FN)) {
            return;
        }
    }
    $s->add($i, (int) $s->next($end), '', 'CallRemoved');
}

/** @return list<array{int, int, string, string}> offset, length, replacement, description, in source order */
function mutations(string $code): array
{
    $source = new Source($code);
    mutate($source);
    $mutants = $source->mutants;
    usort($mutants, static fn (array $a, array $b): int => [$a[0], $a[1]] <=> [$b[0], $b[1]]);
    $seen = [];
    $found = [];
    foreach ($mutants as [$start, $end, $replacement, $mutator, $line]) {
        $from = substr($code, $start, $end - $start);
        if ($from === $replacement) {
            continue;
        }
        $compact = static function (string $text): string {
            $text = (string) preg_replace('/\s+/', ' ', trim($text));
            return strlen($text) > 70 ? substr($text, 0, 33) . '…' . substr($text, -33) : $text;
        };
        $description = "{$line}: {$mutator} '{$compact($from)}' -> '{$compact($replacement)}'";
        $key = "$start/$end/$replacement";
        if (isset($seen[$key])) {
            continue;
        }
        $seen[$key] = true;
        $found[] = [$start, $end - $start, $replacement, $description];
    }
    $counts = [];
    foreach ($found as $k => [, , , $description]) {
        $counts[$description] = ($counts[$description] ?? 0) + 1;
        if ($counts[$description] > 1) {
            $found[$k][3] .= ' #' . $counts[$description];
        }
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

/**
 * The copy's PHPUnit configuration, its suite made of the named tests (PHPUnit 9 runs one path given on
 * its command line; a suite holds several): runners/phpunit.xml with <testsuites> replaced.
 *
 * @param list<string> $tests files or directories, relative to the repository
 */
function writeConfiguration(string $work, array $tests): string
{
    $entries = array_map(
        static fn (string $test): string => sprintf('<%1$s>%2$s</%1$s>', is_dir("{$work}/{$test}") ? 'directory' : 'file', htmlspecialchars("{$work}/{$test}", ENT_XML1)),
        $tests,
    );
    $suite = "<testsuites>\n        <testsuite name=\"mutation\">\n            " . implode("\n            ", $entries) . "\n        </testsuite>\n    </testsuites>";
    $configuration = preg_replace('~<testsuites>.*</testsuites>~s', $suite, (string) file_get_contents("{$work}/runners/phpunit.xml"), 1, $count);
    if ($count !== 1) {
        fail('runners/phpunit.xml has no <testsuites> to replace');
    }
    file_put_contents("{$work}/runners/phpunit-mutation.xml", $configuration);
    return "{$work}/runners/phpunit-mutation.xml";
}

/**
 * PHPUnit on the copy at $work, started. Like Infection, the tests that failed last (on the previous
 * mutant, often of the same line) run first, then the quickest: a mutant is killed in a fraction of
 * the suite's time. The order cannot change a verdict: a mutant survives only when every test passes.
 *
 * @return array{0: resource, 1: array<int, resource>}
 */
function startTests(string $work, int $timeout = 600): array
{
    $command = ['timeout', (string) $timeout, 'phpunit', '-c', "{$work}/runners/phpunit-mutation.xml", '--stop-on-failure',
        '--cache-result', "--cache-result-file={$work}/.phpunit.result.cache", '--order-by=defects,duration'];
    $process = proc_open($command, [0 => ['file', '/dev/null', 'r'], 1 => ['pipe', 'w'], 2 => ['file', '/dev/null', 'w']], $pipes);
    if (!is_resource($process)) {
        fail('could not start phpunit');
    }
    return [$process, $pipes];
}

/** @return string|null the first failing test, or null when the tests passed */
function finishTests(array $started): ?string
{
    [$process, $pipes] = $started;
    $output = (string) stream_get_contents($pipes[1]);
    fclose($pipes[1]);
    $code = proc_close($process);
    if ($code === 0) {
        return null;
    }
    if ($code === 124) {
        return 'a timeout';
    }
    return preg_match('/^1\) (\S+)/m', $output, $match) === 1 ? $match[1] : "exit code {$code}";
}

$arguments = array_slice($argv, 1);
$list = in_array('--list', $arguments, true);
$arguments = array_values(array_diff($arguments, ['--list']));
$jobs = 1;
if (($at = array_search('--jobs', $arguments, true)) !== false) {
    $jobs = max(1, (int) ($arguments[$at + 1] ?? 1));
    array_splice($arguments, $at, 2);
}
if (count($arguments) < 2) {
    fail('usage: php scripts/php-mutation.php [--list] [--jobs N] SOURCE TEST... (test files or directories)');
}
$repository = dirname(__DIR__);
[$file, $tests] = [$arguments[0], array_slice($arguments, 1)];
if (!is_file("{$repository}/{$file}")) {
    fail("{$file}: no such file under {$repository}");
}
foreach ($tests as $test) {
    if (!file_exists("{$repository}/{$test}")) {
        fail("{$test}: no such test file or directory under {$repository}");
    }
}
$original = (string) file_get_contents("{$repository}/{$file}");
$mutants = mutations($original);
if ($list) {
    foreach ($mutants as [, , , $description]) {
        echo "mutant {$description}\n";
    }
    exit(0);
}
$works = [];
for ($job = 0; $job < $jobs; $job++) {
    $works[$job] = sys_get_temp_dir() . '/php-mutation-' . bin2hex(random_bytes(4));
    // What the runner's tests read: their code, the schemas and the vectors (not the runs).
    foreach (['runners', 'data/schema', 'vectors'] as $directory) {
        copyTree("{$repository}/{$directory}", "{$works[$job]}/{$directory}");
    }
    writeConfiguration($works[$job], $tests);
}
// A killed pass (Ctrl-C, kill) leaves no copy behind.
register_shutdown_function(static function () use ($works): void {
    foreach ($works as $work) {
        exec('rm -rf ' . escapeshellarg($work));
    }
});
if (function_exists('pcntl_async_signals')) {
    pcntl_async_signals(true);
    foreach ([SIGINT, SIGTERM, SIGHUP] as $signal) {
        pcntl_signal($signal, static fn () => exit(130));
    }
}
$timeout = 60;
foreach ($works as $work) {
    // Each copy learns the suite's durations once, for the order above.
    $start = hrtime(true);
    if (finishTests(startTests($work)) !== null) {
        fail('the tests fail before any mutation');
    }
    $timeout = max($timeout, (int) ceil(TIMEOUT_FACTOR * (hrtime(true) - $start) / 1e9));
}
$queue = $mutants;
$running = [];
while ($queue !== [] || $running !== []) {
    foreach (array_diff_key($works, $running) as $job => $work) {
        while ($queue !== []) {
            [$at, $length, $replacement, $description] = array_shift($queue);
            file_put_contents("{$work}/{$file}", substr_replace($original, $replacement, $at, $length));
            exec('php -l ' . escapeshellarg("{$work}/{$file}") . ' >/dev/null 2>&1', $lint, $invalid);
            if ($invalid !== 0) {
                continue; // not valid PHP: no mutant
            }
            $running[$job] = [$description, startTests($work, $timeout)];
            break;
        }
    }
    if ($running === []) {
        break;
    }
    // Wait for the oldest; the others keep running meanwhile.
    $job = array_key_first($running);
    [$description, $started] = $running[$job];
    unset($running[$job]);
    $killer = finishTests($started);
    echo ($killer === null ? "survived {$description}" : "killed {$description}  by {$killer}") . "\n";
}
