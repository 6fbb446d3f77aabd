<?php

declare(strict_types=1);

namespace PhpCryptoBench\Tests\Environment;

/**
 * Finds, in PHP source, what PHP 8.1 cannot run and what PHP 8.2 to 8.4 print deprecation notices
 * for: syntax by token_get_all() (no TOKEN_PARSE, so PHP 8.1 can scan code it cannot parse), and
 * calls to functions and classes newer than 8.1 from a deny-list. It knows no more PHP than those
 * rules need: each rule has a fixture in PhpCompatibilityTest proving it can fail.
 */
final class CompatibilityScanner
{
    public const READONLY_CLASS = 'readonly class (PHP 8.2)';
    public const STANDALONE_TYPE = 'true type, or false/null as a standalone type (PHP 8.2)';
    public const DNF_TYPE = 'DNF type (PHP 8.2)';
    public const TRAIT_CONSTANT = 'constant in a trait (PHP 8.2)';
    public const TYPED_CONSTANT = 'typed class constant (PHP 8.3)';
    public const DYNAMIC_CONSTANT_FETCH = 'dynamic class constant fetch Foo::{$name} (PHP 8.3)';
    public const FETCH_IN_CONSTANT = 'property fetch in a constant expression, e.g. an enum case\'s ->value (PHP 8.2)';
    public const PROPERTY_HOOK = 'property hook (PHP 8.4)';
    public const ASYMMETRIC_VISIBILITY = 'asymmetric visibility (PHP 8.4)';
    public const NEW_WITHOUT_PARENTHESES = 'member access on new without parentheses (PHP 8.4)';
    public const NEWER_FUNCTION = 'function newer than PHP 8.1';
    public const NEWER_CLASS = 'class newer than PHP 8.1';
    public const DEPRECATED = 'deprecated in PHP 8.2-8.4';
    public const IMPLICITLY_NULLABLE = 'implicitly nullable parameter (deprecated in PHP 8.4)';

    /** Functions PHP 8.1 does not have, with the version that added them. */
    public const NEWER_FUNCTIONS = [
        'curl_upkeep' => '8.2', 'ini_parse_quantity' => '8.2', 'libxml_get_external_entity_loader' => '8.2',
        'memory_reset_peak_usage' => '8.2', 'mysqli_execute_query' => '8.2', 'openssl_cipher_key_length' => '8.2',
        'sodium_crypto_stream_xchacha20_xor_ic' => '8.2', 'odbc_connection_string_is_quoted' => '8.2',
        'odbc_connection_string_should_quote' => '8.2', 'odbc_connection_string_quote' => '8.2',
        'json_validate' => '8.3', 'mb_str_pad' => '8.3', 'str_increment' => '8.3', 'str_decrement' => '8.3',
        'stream_context_set_options' => '8.3', 'posix_sysconf' => '8.3', 'posix_pathconf' => '8.3',
        'posix_fpathconf' => '8.3', 'posix_eaccess' => '8.3', 'socket_atmark' => '8.3',
        'ldap_connect_wallet' => '8.3', 'ldap_exop_sync' => '8.3',
        'array_find' => '8.4', 'array_find_key' => '8.4', 'array_any' => '8.4', 'array_all' => '8.4',
        'mb_trim' => '8.4', 'mb_ltrim' => '8.4', 'mb_rtrim' => '8.4', 'mb_ucfirst' => '8.4', 'mb_lcfirst' => '8.4',
        'bcdivmod' => '8.4', 'bcround' => '8.4', 'bcfloor' => '8.4', 'bcceil' => '8.4', 'fpow' => '8.4',
        'http_get_last_response_headers' => '8.4', 'http_clear_last_response_headers' => '8.4',
        'request_parse_body' => '8.4', 'grapheme_str_split' => '8.4', 'opcache_jit_blacklist' => '8.4',
        'openssl_password_hash' => '8.4', 'openssl_password_verify' => '8.4',
        'sodium_crypto_aead_aegis128l_decrypt' => '8.4', 'sodium_crypto_aead_aegis128l_encrypt' => '8.4',
        'sodium_crypto_aead_aegis128l_keygen' => '8.4', 'sodium_crypto_aead_aegis256_decrypt' => '8.4',
        'sodium_crypto_aead_aegis256_encrypt' => '8.4', 'sodium_crypto_aead_aegis256_keygen' => '8.4',
        'pcntl_getcpu' => '8.4', 'pcntl_getcpuaffinity' => '8.4', 'pcntl_setcpuaffinity' => '8.4',
        'pcntl_getqos_class' => '8.4', 'pcntl_setqos_class' => '8.4', 'pcntl_waitid' => '8.4', 'pcntl_setns' => '8.4',
    ];

    /**
     * Classes PHP 8.1 does not have (a trailing backslash: a whole namespace). Attributes are left
     * out on purpose: PHP 8.1 ignores #[\SensitiveParameter], #[\Override] and #[\Deprecated].
     */
    public const NEWER_CLASSES = [
        'random\\' => '8.2', 'sensitiveparametervalue' => '8.2',
        'dateerror' => '8.3', 'dateobjecterror' => '8.3', 'daterangeerror' => '8.3', 'dateexception' => '8.3',
        'dateinvalidoperationexception' => '8.3', 'dateinvalidtimezoneexception' => '8.3',
        'datemalformedintervalstringexception' => '8.3', 'datemalformedperiodstringexception' => '8.3',
        'datemalformedstringexception' => '8.3', 'sqlite3exception' => '8.3',
        'roundingmode' => '8.4', 'dom\\' => '8.4', 'pdo\\' => '8.4', 'bcmath\\' => '8.4',
        'streambucket' => '8.4', 'reflectionconstant' => '8.4',
    ];

    /** Functions that print a deprecation notice on some PHP from 8.1 to 8.4, and when it started. */
    public const DEPRECATED_FUNCTIONS = [
        'strftime' => '8.1', 'gmstrftime' => '8.1', 'date_sunrise' => '8.1', 'date_sunset' => '8.1',
        'mhash' => '8.1', 'mhash_count' => '8.1', 'mhash_get_block_size' => '8.1', 'mhash_get_hash_name' => '8.1',
        'mhash_keygen_s2k' => '8.1', 'odbc_result_all' => '8.1',
        'utf8_encode' => '8.2', 'utf8_decode' => '8.2',
        'assert_options' => '8.3',
        'lcg_value' => '8.4', 'mysqli_ping' => '8.4', 'mysqli_kill' => '8.4', 'mysqli_refresh' => '8.4',
        'xml_set_object' => '8.4',
    ];

    /** Constants whose use prints a deprecation notice from PHP 8.1 to 8.4. */
    public const DEPRECATED_CONSTANTS = [
        'filter_sanitize_string' => '8.1', 'filter_sanitize_stripped' => '8.1', 'file_binary' => '8.1', 'file_text' => '8.1',
        'mt_rand_php' => '8.3',
        'e_strict' => '8.4', 'curlopt_binarytransfer' => '8.4', 'soap_functions_all' => '8.4',
        'sunfuncs_ret_timestamp' => '8.4', 'sunfuncs_ret_string' => '8.4', 'sunfuncs_ret_double' => '8.4',
    ];

    /**
     * CSV functions whose $escape must be passed explicitly from PHP 8.4 on, and its position
     * (1-based): PHP's own escape mechanism is deprecated and its default will change.
     */
    private const CSV_ESCAPE_ARGUMENT = ['fputcsv' => 5, 'fgetcsv' => 5, 'str_getcsv' => 4];

    private const NAME = [T_STRING, T_NAME_QUALIFIED, T_NAME_FULLY_QUALIFIED, T_NAME_RELATIVE];
    private const OPENERS = ['(', '[', '{', T_ATTRIBUTE, T_CURLY_OPEN, T_DOLLAR_OPEN_CURLY_BRACES];
    private const CLOSERS = [')', ']', '}'];

    /** @var list<array{id: int|string, text: string, line: int}> significant tokens */
    private array $tokens = [];
    /** @var list<array{line: int, rule: string, detail: string}> */
    private array $findings = [];
    /** @var array<int, true> indices of tokens inside a parameter list */
    private array $inParameters = [];
    /** @var array<string, string> alias (lower case) => fully qualified name */
    private array $imports = [];
    private string $namespace = '';

    /**
     * @param bool $newerApisAllowed true for the one file that may call newer functions behind a
     *                               version check (PhpFeatures)
     * @return list<array{line: int, rule: string, detail: string}> in order of line
     */
    public function scan(string $code, bool $newerApisAllowed = false): array
    {
        $this->tokens = self::significantTokens($code);
        $this->findings = [];
        $this->inParameters = [];
        $this->imports = [];
        $this->namespace = '';
        $this->scanFunctions();
        $this->scanStructure();
        $this->scanExpressions($newerApisAllowed);
        usort($this->findings, static fn (array $a, array $b): int => [$a['line'], $a['rule']] <=> [$b['line'], $b['rule']]);
        return $this->findings;
    }

    /** @return list<array{id: int|string, text: string, line: int}> */
    private static function significantTokens(string $code): array
    {
        $tokens = [];
        $line = 1;
        foreach (token_get_all($code) as $token) {
            [$id, $text, $at] = is_array($token) ? $token : [$token, $token, $line];
            $line = $at + substr_count($text, "\n");
            if (!in_array($id, [T_WHITESPACE, T_COMMENT, T_DOC_COMMENT, T_OPEN_TAG, T_CLOSE_TAG, T_INLINE_HTML], true)) {
                $tokens[] = ['id' => $id, 'text' => $text, 'line' => $at];
            }
        }
        return $tokens;
    }

    private function report(int $index, string $rule, string $detail): void
    {
        $this->findings[] = ['line' => $this->tokens[$index]['line'], 'rule' => $rule, 'detail' => $detail];
    }

    /** @param int|string ...$ids */
    private function is(int $index, ...$ids): bool
    {
        return isset($this->tokens[$index]) && in_array($this->tokens[$index]['id'], $ids, true);
    }

    private function text(int $index): string
    {
        return $this->tokens[$index]['text'] ?? '';
    }

    /** The index of the token closing the bracket opened at $open. */
    private function closing(int $open): int
    {
        $depth = 0;
        for ($i = $open, $n = count($this->tokens); $i < $n; $i++) {
            if ($this->is($i, ...self::OPENERS)) {
                $depth++;
            } elseif ($this->is($i, ...self::CLOSERS) && --$depth === 0) {
                return $i;
            }
        }
        return $n - 1;
    }

    /** Parameter lists and return types of functions, methods, closures and arrow functions. */
    private function scanFunctions(): void
    {
        foreach ($this->tokens as $i => $token) {
            if (!in_array($token['id'], [T_FUNCTION, T_FN], true)) {
                continue;
            }
            $open = $i + 1;
            while (isset($this->tokens[$open]) && !$this->is($open, '(', '{', ';', '=')) {
                $open++;
            }
            if (!$this->is($open, '(')) {
                continue; // `use function Foo\bar;`
            }
            $close = $this->closing($open);
            for ($j = $open; $j <= $close; $j++) {
                $this->inParameters[$j] = true;
            }
            $this->scanParameters($open, $close);
            $next = $close + 1;
            if ($this->is($next, T_USE) && $this->is($next + 1, '(')) {
                $next = $this->closing($next + 1) + 1;
            }
            if ($this->is($next, ':')) {
                $end = $next + 1;
                while (isset($this->tokens[$end]) && !$this->is($end, '{', ';', T_DOUBLE_ARROW)) {
                    $end++;
                }
                $this->checkType($next + 1, $end);
            }
        }
    }

    private function scanParameters(int $open, int $close): void
    {
        $start = $open + 1;
        $depth = 0;
        for ($i = $open + 1; $i <= $close; $i++) {
            if ($this->is($i, ...self::OPENERS)) {
                $depth++;
            } elseif ($this->is($i, ...self::CLOSERS)) {
                $depth--;
            }
            if ($i === $close || ($depth === 0 && $this->is($i, ','))) {
                if ($i > $start) {
                    $this->scanParameter($start, $i);
                }
                $start = $i + 1;
            }
        }
    }

    /** One parameter: tokens $start to $end, exclusive. */
    private function scanParameter(int $start, int $end): void
    {
        $i = $start;
        while ($this->is($i, T_ATTRIBUTE)) {
            $i = $this->closing($i) + 1;
        }
        $i = $this->skipModifiers($i);
        $typeStart = $i;
        while ($i < $end && !$this->is($i, T_VARIABLE, T_ELLIPSIS, T_AMPERSAND_FOLLOWED_BY_VAR_OR_VARARG)) {
            $i++;
        }
        $type = $this->checkType($typeStart, $i);
        while ($i < $end && !$this->is($i, T_VARIABLE)) {
            $i++;
        }
        $variable = $this->text($i);
        $i++;
        if ($this->is($i, '{')) {
            $this->report($i, self::PROPERTY_HOOK, "hooks on promoted property $variable");
        }
        $defaultsToNull = $this->is($i, '=') && $i + 2 === $end && $this->is($i + 1, T_STRING, T_NAME_FULLY_QUALIFIED)
            && strtolower(ltrim($this->text($i + 1), '\\')) === 'null';
        if ($defaultsToNull && $type !== null && !$type['nullable'] && !in_array('null', $type['atoms'], true) && !in_array('mixed', $type['atoms'], true)) {
            $this->report($typeStart, self::IMPLICITLY_NULLABLE, sprintf('%s %s = null: write ?%1$s (or %1$s|null)', $type['text'], $variable));
        }
    }

    /** Skips property/parameter modifiers from $i; reports asymmetric visibility. */
    private function skipModifiers(int $i): int
    {
        $modifiers = [T_PUBLIC, T_PROTECTED, T_PRIVATE, T_READONLY, T_VAR, T_STATIC, T_FINAL, T_ABSTRACT];
        $setters = array_values(array_filter(array_map(
            static fn (string $name): ?int => defined($name) ? (int) constant($name) : null,
            ['T_PUBLIC_SET', 'T_PROTECTED_SET', 'T_PRIVATE_SET'],
        ), static fn (?int $id): bool => $id !== null));
        while (true) {
            if ($setters !== [] && $this->is($i, ...$setters)) {
                $this->report($i, self::ASYMMETRIC_VISIBILITY, $this->text($i));
                $i++;
            } elseif ($this->is($i, T_PUBLIC, T_PROTECTED, T_PRIVATE) && $this->is($i + 1, '(')
                && strtolower($this->text($i + 2)) === 'set' && $this->is($i + 3, ')')) {
                $this->report($i, self::ASYMMETRIC_VISIBILITY, $this->text($i) . '(set)');
                $i += 4;
            } elseif ($this->is($i, ...$modifiers)) {
                $i++;
            } else {
                return $i;
            }
        }
    }

    /**
     * Checks the type written in tokens $start to $end (exclusive).
     *
     * @return array{text: string, atoms: list<string>, nullable: bool}|null null when no type is written
     */
    private function checkType(int $start, int $end): ?array
    {
        if ($start >= $end) {
            return null;
        }
        $text = '';
        $atoms = [];
        $parentheses = false;
        for ($i = $start; $i < $end; $i++) {
            $text .= $this->text($i);
            if ($this->is($i, '(', ')')) {
                $parentheses = true;
            } elseif ($this->is($i, T_STRING, T_NAME_QUALIFIED, T_NAME_FULLY_QUALIFIED, T_ARRAY, T_CALLABLE, T_STATIC)) {
                $atoms[] = strtolower(ltrim($this->text($i), '\\'));
            }
        }
        if ($parentheses) {
            $this->report($start, self::DNF_TYPE, $text);
        }
        $literal = array_intersect($atoms, ['true', 'false', 'null']);
        if ($atoms !== [] && (in_array('true', $atoms, true) || count($literal) === count($atoms))) {
            $this->report($start, self::STANDALONE_TYPE, $text);
        }
        return ['text' => $text, 'atoms' => $atoms, 'nullable' => $this->is($start, '?')];
    }

    /** Class-like bodies: readonly classes, constants, properties; and `use` imports. */
    private function scanStructure(): void
    {
        /** @var list<string> $stack what each open brace opened: class, trait, interface, enum or block */
        $stack = [];
        $pending = null;
        foreach ($this->tokens as $i => $token) {
            $id = $token['id'];
            $inClass = $stack !== [] && end($stack) !== 'block';
            if ($id === T_READONLY) {
                $next = $i + 1;
                while ($this->is($next, T_FINAL, T_ABSTRACT)) {
                    $next++;
                }
                if ($this->is($next, T_CLASS)) {
                    $this->report($i, self::READONLY_CLASS, 'readonly class ' . $this->text($next + 1));
                }
            }
            if (in_array($id, [T_CLASS, T_TRAIT, T_INTERFACE, T_ENUM], true) && !$this->is($i - 1, T_DOUBLE_COLON)) {
                $pending = strtolower($token['text']);
            } elseif (in_array($id, ['{', T_CURLY_OPEN, T_DOLLAR_OPEN_CURLY_BRACES], true)) {
                $stack[] = $pending ?? 'block';
                $pending = null;
            } elseif ($id === '}') {
                array_pop($stack);
            } elseif ($id === T_CONST && !$this->is($i - 1, T_USE)) {
                $this->checkConstant($i, $inClass ? (string) end($stack) : 'namespace');
            } elseif ($id === T_USE && $stack === [] && !$this->is($i + 1, '(')) {
                $this->readImport($i);
            } elseif ($id === T_NAMESPACE && $this->is($i + 1, T_STRING, T_NAME_QUALIFIED)) {
                $this->namespace = $this->text($i + 1);
                $this->imports = [];
            }
            if ($inClass && !isset($this->inParameters[$i]) && $this->is($i, T_PUBLIC, T_PROTECTED, T_PRIVATE, T_VAR, T_READONLY, T_STATIC)
                && !$this->is($i - 1, T_PUBLIC, T_PROTECTED, T_PRIVATE, T_VAR, T_READONLY, T_STATIC, T_FINAL, T_ABSTRACT, ')')) {
                $this->checkProperty($i);
            }
        }
    }

    private function checkConstant(int $const, string $classKind): void
    {
        if ($classKind === 'trait') {
            $this->report($const, self::TRAIT_CONSTANT, 'const ' . $this->text($const + 1));
        }
        $equals = $const + 1;
        while (isset($this->tokens[$equals]) && !$this->is($equals, '=', ';')) {
            $equals++;
        }
        if ($this->is($equals, '=') && $equals - $const > 2) {
            $this->report($const, self::TYPED_CONSTANT, 'const ' . implode(' ', array_map(fn (int $k): string => $this->text($k), range($const + 1, $equals - 1))));
        }
        for ($i = $equals; isset($this->tokens[$i]) && !$this->is($i, ';'); $i++) {
            if ($this->is($i, T_OBJECT_OPERATOR, T_NULLSAFE_OBJECT_OPERATOR)) {
                $this->report($i, self::FETCH_IN_CONSTANT, $this->text($i - 1) . $this->text($i) . $this->text($i + 1));
            }
        }
    }

    /** A member declaration starting with a modifier at $start: a property's type and hooks. */
    private function checkProperty(int $start): void
    {
        $i = $this->skipModifiers($start);
        if ($this->is($i, T_FUNCTION, T_FN, T_CONST, T_CLASS, T_ENUM, T_DOUBLE_COLON)) {
            return;
        }
        $typeStart = $i;
        while ($this->is($i, T_STRING, T_NAME_QUALIFIED, T_NAME_FULLY_QUALIFIED, T_ARRAY, T_CALLABLE, T_STATIC, '?', '|', '(', ')', T_AMPERSAND_NOT_FOLLOWED_BY_VAR_OR_VARARG)) {
            $i++;
        }
        if (!$this->is($i, T_VARIABLE)) {
            return;
        }
        $this->checkType($typeStart, $i);
        $variable = $this->text($i);
        for ($depth = 0, $i++; isset($this->tokens[$i]); $i++) {
            if ($depth === 0 && $this->is($i, '{')) {
                $this->report($i, self::PROPERTY_HOOK, "hooks on property $variable");
                return;
            }
            if ($depth === 0 && $this->is($i, ';')) {
                return;
            }
            if ($this->is($i, ...self::OPENERS)) {
                $depth++;
            } elseif ($this->is($i, ...self::CLOSERS)) {
                $depth--;
            }
        }
    }

    /** `use A\B;`, `use A\B as C;`, `use A\{B, C as D};` (functions and constants are not classes). */
    private function readImport(int $use): void
    {
        if ($this->is($use + 1, T_FUNCTION, T_CONST)) {
            return;
        }
        $prefix = '';
        $name = null;
        for ($i = $use + 1; isset($this->tokens[$i]) && !$this->is($i, ';'); $i++) {
            if ($this->is($i, ...self::NAME)) {
                $name = $prefix . ltrim($this->text($i), '\\');
            } elseif ($this->is($i, T_NS_SEPARATOR) && $name !== null) {
                $name .= '\\';
            } elseif ($this->is($i, '{')) {
                $prefix = rtrim((string) $name, '\\') . '\\';
                $name = null;
            } elseif ($this->is($i, T_AS)) {
                $this->imports[strtolower($this->text($i + 1))] = (string) $name;
                $name = null;
                $i++;
            } elseif ($this->is($i, ',', '}') && $name !== null) {
                $this->addImport($name);
                $name = null;
            }
        }
        if ($name !== null) {
            $this->addImport($name);
        }
    }

    private function addImport(string $name): void
    {
        $this->imports[strtolower(substr((string) strrchr('\\' . $name, '\\'), 1))] = $name;
    }

    /** Calls, class references, constants, `${`, `new Foo()->bar()`, `Foo::{$name}`. */
    private function scanExpressions(bool $newerApisAllowed): void
    {
        $notAName = [T_OBJECT_OPERATOR, T_NULLSAFE_OBJECT_OPERATOR, T_DOUBLE_COLON, T_FUNCTION, T_CONST, T_CLASS,
            T_INTERFACE, T_TRAIT, T_ENUM, T_NAMESPACE, T_USE, T_GOTO, T_CASE, T_AS, T_NS_SEPARATOR];
        foreach ($this->tokens as $i => $token) {
            $id = $token['id'];
            if ($id === T_DOLLAR_OPEN_CURLY_BRACES) {
                $this->report($i, self::DEPRECATED, '"${var}" string interpolation (8.2): write "{$var}"');
            } elseif ($id === T_DOUBLE_COLON && $this->is($i + 1, '{')) {
                $this->report($i, self::DYNAMIC_CONSTANT_FETCH, '::{');
            } elseif ($id === T_NEW) {
                $this->checkNew($i);
            } elseif ($this->is($i, T_OBJECT_OPERATOR, T_NULLSAFE_OBJECT_OPERATOR) && $this->is($i + 1, T_STRING) && $this->is($i + 2, '(')) {
                $this->checkCsvMethod($i + 1);
            }
            if (!in_array($id, self::NAME, true) || $this->is($i - 1, ...$notAName) || $this->is($i + 1, T_NS_SEPARATOR)) {
                continue;
            }
            if ($this->is($i + 1, '(') && !$this->is($i - 1, T_NEW)) {
                $this->checkCall($i, $newerApisAllowed);
            } elseif (!($this->is($i + 1, ':') && $this->is($i - 1, '(', ','))) { // not a named argument
                $this->checkName($i, $newerApisAllowed);
            }
        }
    }

    private function checkCall(int $i, bool $newerApisAllowed): void
    {
        if ($this->is($i, T_NAME_QUALIFIED, T_NAME_RELATIVE) || substr_count($this->text($i), '\\') > 1) {
            return; // a namespaced function of this project
        }
        $function = strtolower(ltrim($this->text($i), '\\'));
        if (isset(self::NEWER_FUNCTIONS[$function]) && !$newerApisAllowed) {
            $this->report($i, self::NEWER_FUNCTION, sprintf('%s() is new in PHP %s: call it through PhpFeatures', $function, self::NEWER_FUNCTIONS[$function]));
        }
        if (isset(self::DEPRECATED_FUNCTIONS[$function])) {
            $this->report($i, self::DEPRECATED, sprintf('%s() (%s)', $function, self::DEPRECATED_FUNCTIONS[$function]));
        }
        if (in_array($function, ['get_class', 'get_parent_class'], true) && $this->is($i + 2, ')')) {
            $this->report($i, self::DEPRECATED, "$function() without an argument (8.3): write self::class or static::class");
        }
        if (isset(self::CSV_ESCAPE_ARGUMENT[$function])) {
            $this->checkEscapeArgument($i, $function, self::CSV_ESCAPE_ARGUMENT[$function]);
        }
    }

    /** SplFileObject's CSV methods: fputcsv($fields, $sep, $encl, $escape), fgetcsv/setCsvControl($sep, $encl, $escape). */
    private function checkCsvMethod(int $i): void
    {
        $positions = ['fputcsv' => 4, 'fgetcsv' => 3, 'setcsvcontrol' => 3];
        $method = strtolower($this->text($i));
        if (isset($positions[$method])) {
            $this->checkEscapeArgument($i, "->$method", $positions[$method]);
        }
    }

    private function checkEscapeArgument(int $name, string $function, int $position): void
    {
        $close = $this->closing($name + 1);
        $arguments = 1;
        $depth = 0;
        for ($i = $name + 2; $i < $close; $i++) {
            if ($this->is($i, ...self::OPENERS)) {
                $depth++;
            } elseif ($this->is($i, ...self::CLOSERS)) {
                $depth--;
            } elseif ($depth === 0 && $this->is($i, ',') && $i + 1 < $close) {
                $arguments++;
            } elseif ($depth === 0 && ($this->is($i, T_ELLIPSIS) || (strtolower($this->text($i)) === 'escape' && $this->is($i + 1, ':')))) {
                return;
            }
        }
        if ($close === $name + 2) {
            $arguments = 0;
        }
        if ($arguments < $position) {
            $this->report($name, self::DEPRECATED, "$function() without its \$escape argument (8.4): pass '' (RFC 4180) explicitly");
        }
    }

    private function checkName(int $i, bool $newerApisAllowed): void
    {
        $constant = strtolower(ltrim($this->text($i), '\\'));
        if (isset(self::DEPRECATED_CONSTANTS[$constant]) && !$this->is($i - 1, T_NEW)) {
            $this->report($i, self::DEPRECATED, sprintf('%s (%s)', strtoupper($constant), self::DEPRECATED_CONSTANTS[$constant]));
        }
        if ($newerApisAllowed) {
            return;
        }
        $class = strtolower($this->resolve($this->tokens[$i]));
        foreach (self::NEWER_CLASSES as $newer => $version) {
            if ($class === $newer || (str_ends_with($newer, '\\') && str_starts_with($class, $newer))) {
                $this->report($i, self::NEWER_CLASS, sprintf('%s is new in PHP %s', $this->resolve($this->tokens[$i]), $version));
            }
        }
    }

    /** @param array{id: int|string, text: string, line: int} $token */
    private function resolve(array $token): string
    {
        $name = $token['text'];
        if ($token['id'] === T_NAME_FULLY_QUALIFIED) {
            return ltrim($name, '\\');
        }
        if ($token['id'] === T_NAME_RELATIVE) {
            return $this->namespace . substr($name, strlen('namespace'));
        }
        $first = strtolower(explode('\\', $name)[0]);
        if (isset($this->imports[$first])) {
            return $this->imports[$first] . substr($name, strlen($first));
        }
        return $this->namespace === '' ? $name : $this->namespace . '\\' . $name;
    }

    /** `new Foo()->bar()` (8.4) where 8.1 needs `(new Foo())->bar()`. */
    private function checkNew(int $new): void
    {
        $name = $new + 1;
        if (!$this->is($name, T_STRING, T_NAME_QUALIFIED, T_NAME_FULLY_QUALIFIED, T_NAME_RELATIVE, T_STATIC, T_VARIABLE) || !$this->is($name + 1, '(')) {
            return;
        }
        $after = $this->closing($name + 1) + 1;
        if ($this->is($after, T_OBJECT_OPERATOR, T_NULLSAFE_OBJECT_OPERATOR, T_DOUBLE_COLON, '[')) {
            $this->report($new, self::NEW_WITHOUT_PARENTHESES, sprintf('new %s(...)%s: write (new %1$s(...))%2$s', $this->text($name), $this->text($after)));
        }
    }
}
