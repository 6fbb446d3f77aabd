"""scripts/php-mutation.php (make mutation): the mutants it makes of a sample with one of each construct,
each kind the PHP mutation pass must make (issue 38: boundaries, negated and removed conditions, the order
of an array union or array_merge, removed calls, loosened regexes and lengths, strict comparisons made
loose, constants, isset/empty swaps), listed without running anything."""

import subprocess

from .conftest import ROOT

SAMPLE = "tests/fixtures/mutation/Sample.php"

EXPECTED = [
    "10: Integer '16' -> '17'",
    "10: Integer '16' -> '15'",
    "15: ConditionRemoved '(strlen($tag) !== self::LIMIT || !hash_equals($known, $tag))' -> '(false)'",
    "15: IfNegation '(strlen($tag) !== self::LIMIT || !hash_equals($known, $tag))'"
    " -> '(!(strlen($tag) !== self::LIMIT || !hash_equals($known, $tag)))'",
    "15: ConditionRemoved 'strlen($tag) !== self::LIMIT' -> 'false'",
    "15: Negation '!==' -> '==='",
    "15: LooseComparison '!==' -> '!='",
    "15: LengthLoosened '!==' -> '<'",
    "15: LengthLoosened '!==' -> '>'",
    "15: LogicalOperator '||' -> '&&'",
    "15: LogicalNot '!' -> ''",
    "15: ConditionRemoved '!hash_equals($known, $tag)' -> 'false'",
    "15: LooseComparison 'hash_equals($known, $tag)' -> '(($known) === ($tag))'",
    "15: LooseComparison 'hash_equals($known, $tag)' -> '(($known) == ($tag))'",
    "15: LooseComparison 'hash_equals($known, $tag)' -> '(strncmp($known, $tag, 16) === 0)'",
    "16: ThrowRemoved 'throw' -> ''",
    "18: MergeOrder '['alg' => 'HS256'] + $header' -> '$header + ['alg' => 'HS256']'",
    "18: ArrayItemRemoved ''alg' => 'HS256'' -> ''",
    "18: Arithmetic '+' -> '-'",
    "19: Unwrap 'array_merge($header, ['typ' => 'JWT'])' -> '$header'",
    "19: MergeOrder 'array_merge($header, ['typ' => 'JWT'])' -> 'array_merge(['typ' => 'JWT'], $header)'",
    "19: ArrayItemRemoved ''typ' => 'JWT'' -> ''",
    "20: ConditionRemoved '(isset($header['crit']) && strcmp…64') === 0 && count($merged) > 2)' -> '(false)'",
    "20: IfNegation '(isset($header['crit']) && strcmp…64') === 0 && count($merged) > 2)'"
    " -> '(!(isset($header['crit']) && strc…4') === 0 && count($merged) > 2))'",
    "20: IssetEmpty 'isset' -> '!empty'",
    "20: ConditionRemoved 'isset($header['crit'])' -> 'true'",
    "20: LogicalOperator '&&' -> '||'",
    "20: LooseComparison 'strcmp' -> 'strcasecmp'",
    "20: ConditionRemoved 'strcmp((string) $crit, 'b64') === 0' -> 'true'",
    "20: CastRemoved '(string)' -> ''",
    "20: Negation '===' -> '!=='",
    "20: LooseComparison '===' -> '=='",
    "20: Integer '0' -> '1'",
    "20: LogicalOperator '&&' -> '||' #2",
    "20: ConditionRemoved 'count($merged) > 2' -> 'true'",
    "20: Boundary '>' -> '>='",
    "20: Negation '>' -> '<='",
    "20: Integer '2' -> '3'",
    "20: Integer '2' -> '1'",
    "21: Boolean 'false' -> 'true'",
    "23: CallRemoved 'error_log('checked');' -> ''",
    "24: ConditionRemoved 'preg_match('/^[a-z]+$/D', ltrim($tag)) === 1' -> 'true'",
    "24: Regex (^ removed) ''/^[a-z]+$/D'' -> ''/[a-z]+$/D''",
    "24: Regex ($ removed) ''/^[a-z]+$/D'' -> ''/^[a-z]+/D''",
    "24: Regex (flag D removed) ''/^[a-z]+$/D'' -> ''/^[a-z]+$/''",
    "24: Regex ([a-z] as .) ''/^[a-z]+$/D'' -> ''/^.+$/D''",
    "24: Unwrap 'ltrim($tag)' -> '$tag'",
    "24: Negation '===' -> '!=='",
    "24: LooseComparison '===' -> '=='",
    "24: Integer '1' -> '2'",
    "24: Integer '1' -> '0'",
    "24: LogicalOperator '&&' -> '||'",
    "24: ConditionRemoved '$header instanceof \\Countable' -> 'true'",
    "24: InstanceOf '$header instanceof \\Countable' -> 'false'",
    "29: Arithmetic '++' -> '--'",
    "31: MatchArmRemoved ''ES256' => 32 * $count,' -> ''",
    "31: Integer '32' -> '33'",
    "31: Integer '32' -> '31'",
    "31: Arithmetic '*' -> '/'",
    "32: MatchArmRemoved 'default => 0,' -> ''",
    "32: Integer '0' -> '1'",
]


def listed(path: str) -> list[str]:
    done = subprocess.run(
        ["php", str(ROOT / "scripts" / "php-mutation.php"), "--list", path, "runners/tests"],
        capture_output=True,
        text=True,
        check=True,
        cwd=ROOT,
    )
    return [line.removeprefix("mutant ") for line in done.stdout.splitlines()]


def test_the_sample_gets_every_kind_of_mutant_once_in_source_order():
    assert listed(SAMPLE) == EXPECTED


def test_the_kinds_the_issue_names_are_all_made():
    kinds = {line.split(": ", 1)[1].split(" ", 1)[0] for line in EXPECTED}
    assert kinds >= {
        "Boundary",
        "Negation",
        "ConditionRemoved",
        "IfNegation",
        "LogicalNot",
        "MergeOrder",
        "CallRemoved",
        "Regex",
        "LengthLoosened",
        "LooseComparison",
        "Integer",
        "Boolean",
        "IssetEmpty",
        "Unwrap",
        "CastRemoved",
        "ThrowRemoved",
        "InstanceOf",
        "ArrayItemRemoved",
        "MatchArmRemoved",
        "Arithmetic",
    }


def test_text_inside_a_string_is_never_an_operator():
    """The sample's "bad tag ($tag)" holds a bracket pair and a variable: no mutant touches it."""
    assert not [line for line in EXPECTED if line.startswith("16:") and "ThrowRemoved" not in line]


def test_a_file_that_is_not_there_is_refused():
    done = subprocess.run(
        ["php", str(ROOT / "scripts" / "php-mutation.php"), "--list", "no/such.php", "runners/tests"],
        capture_output=True,
        text=True,
        check=False,
        cwd=ROOT,
    )
    assert done.returncode == 2
    assert done.stderr.startswith("error: no/such.php: no such file under ")


def test_hash_equals_under_a_not_becomes_a_whole_comparison():
    """!hash_equals($a, $b) made !(($a) === ($b)): $a !== $b (issue 44, the audit's survivor in
    cbc-encrypt-then-mac.php), not (!$a) === $b, which is always false and killed by any tamper test."""
    made = [line for line in EXPECTED if "hash_equals" in line.split(" -> ")[0] and "LooseComparison" in line]
    assert [line.split(" -> ")[1] for line in made] == [
        "'(($known) === ($tag))'",
        "'(($known) == ($tag))'",
        "'(strncmp($known, $tag, 16) === 0)'",
    ]


def test_a_test_path_that_is_not_there_is_refused():
    done = subprocess.run(
        [
            "php",
            str(ROOT / "scripts" / "php-mutation.php"),
            "--list",
            SAMPLE,
            "runners/tests/Snippets",
            "runners/tests/NoSuch",
        ],
        capture_output=True,
        text=True,
        check=False,
        cwd=ROOT,
    )
    assert done.returncode == 2
    assert done.stderr.startswith("error: runners/tests/NoSuch: no such test file or directory under ")
