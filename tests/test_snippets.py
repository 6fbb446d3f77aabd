"""The PHP the site shows is the PHP the tests run: every piece of PHP code on a page (generated or
hand-written) is part of a file under runners/snippets/, which PHPUnit executes (runners/tests/Snippets/);
pages include those files whole and safely; the pitfalls page recommends a fix for correctness whatever
the timing says."""

from __future__ import annotations

import csv
import re
from html.parser import HTMLParser
from pathlib import Path

import markdown
import pytest

from phpcb.data import snippets
from phpcb.experiments.pitfalls.policy import load_pitfalls_policy
from phpcb.pages import build as site
from phpcb.presentation import render

from .conftest import FIXTURE_RUN, ROOT, reseal

# As mkdocs.yml configures Markdown.
MARKDOWN_EXTENSIONS = ["admonition", "attr_list", "tables", "toc", "pymdownx.details", "pymdownx.superfences"]
# Besides the snippets, the one other file whose text a page may quote as code.
QUOTABLE = (ROOT / "runners" / "openssl-minimal.cnf",)

_VARIABLE = re.compile(r"\$[A-Za-z_][A-Za-z0-9_]*")
_CALL_WITH_ARGUMENTS = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\((?!\))")


def looks_like_php(code: str) -> bool:
    """What this test calls PHP code: a code span or block (inline code, `<code>`, a fenced block) that
    holds a PHP variable (`$` then a name: `$key`, `$argon2id` in a PHC string too), a `;`, or a call with
    arguments (a name directly followed by `(` and anything but `)`: `random_bytes(12)`). A function's
    plain name in prose (`openssl_encrypt()`), a constant, a command line or a file name is not code."""
    return bool(_VARIABLE.search(code) or ";" in code or _CALL_WITH_ARGUMENTS.search(code))


class _Codes(HTMLParser):
    """The text of every `<code>` element, outermost only (a highlighted block nests spans in it), without
    the line break that ends a block."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.depth = 0
        self.text: list[str] = []
        self.found: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "code":
            self.depth += 1
            if self.depth == 1:
                self.text = []

    def handle_endtag(self, tag: str) -> None:
        if tag == "code" and self.depth:
            self.depth -= 1
            if self.depth == 0:
                self.found.append("".join(self.text).removesuffix("\n"))

    def handle_data(self, data: str) -> None:
        if self.depth:
            self.text.append(data)


# One converter, reset before each page: making one per page (its extensions loaded again each time) cost
# a third of the time of reading every page of the site.
_MARKDOWN = markdown.Markdown(extensions=MARKDOWN_EXTENSIONS)


def codes(page: str) -> list[str]:
    """Every code span and code block of a Markdown page, as the reader sees its text."""
    parser = _Codes()
    parser.feed(_MARKDOWN.reset().convert(page))
    parser.close()
    return parser.found


def quotable(root: Path) -> list[str]:
    return [s.source for s in snippets.every(root)] + [path.read_text(encoding="utf-8") for path in QUOTABLE]


def php_not_from_a_snippet(pages: dict[str, str], sources: list[str]) -> list[tuple[str, str]]:
    """(page, code) for each piece of PHP code on `pages` that is not, whitespace aside, part of a source."""
    return code_not_from_a_snippet({name: codes(page) for name, page in pages.items()}, sources)


def code_not_from_a_snippet(codes_by_page: dict[str, list[str]], sources: list[str]) -> list[tuple[str, str]]:
    """php_not_from_a_snippet of pages already read into their code (codes)."""
    known = [snippets.normalised(source) for source in sources]
    return [
        (name, code)
        for name, found in codes_by_page.items()
        for code in found
        if looks_like_php(code) and not any(snippets.normalised(code) in source for source in known)
    ]


def hand_written() -> dict[str, str]:
    return {f"docs/{path.name}": path.read_text(encoding="utf-8") for path in sorted((ROOT / "docs").glob("*.md"))}


def test_no_page_shows_php_code_that_is_not_part_of_a_snippet(fixture_run_site: site.GeneratedSite, repository_build):
    """The fixture run's pages, and the repository's, generated and hand-written, as the build writes them."""
    pages = {f"fixture: {name}": text for name, text in fixture_run_site.pages.items()}
    docs = repository_build / "docs"
    pages |= {f"repository: {path.relative_to(docs)}": path.read_text(encoding="utf-8") for path in docs.rglob("*.md")}
    assert len(pages) > len(hand_written()) + 10, "the generated pages are read too"
    codes_by_page = {name: codes(page) for name, page in pages.items()}
    shown = [code for found in codes_by_page.values() for code in found if looks_like_php(code)]
    assert sum("declare(strict_types=1);" in code for code in shown) >= 8, "the pages include the snippets"
    assert code_not_from_a_snippet(codes_by_page, quotable(ROOT)) == []


@pytest.mark.parametrize(
    ("code", "php"),
    [
        ("md5($password)", True),
        ("random_bytes(openssl_cipher_iv_length($cipher))", True),
        ("strlen($tag) === 16", True),
        ("openssl_encrypt(..., $tag, $aad, $tag_length)", True),
        ("random_bytes(12)", True),
        ("hrtime(true)", True),
        ("foo(); bar()", True),
        ("$argon2id$v=19$m=19456,t=2,p=1$", True),
        ("openssl_encrypt()", False),
        ("sodium_crypto_aead_xchacha20poly1305_ietf_*", False),
        ("OPENSSL_RAW_DATA", False),
        ("php runners/bench.php run --only aead --profile full", False),
        ("aes-256-ccm (12-byte tag)", False),
        ("runners/snippets/aes-256-gcm.php", False),
        ('{"alg": "ES256", "typ": "JWT"}', False),
    ],
)
def test_what_counts_as_php_code(code: str, php: bool):
    assert looks_like_php(code) is php


def test_the_check_reports_php_in_prose_and_blocks_but_not_function_names():
    page = "\n".join(
        [
            "The IV came from `md5($password)`; call `openssl_encrypt()` instead.",
            "Check <code>strlen($tag) === 16</code> first.",
            "",
            "```php",
            "$key = random_bytes(32); // made up here",
            "```",
            "",
            "Seal with `aes256gcm_seal($plaintext, $associatedData, $key)`.",
        ]
    )
    found = [code for _, code in php_not_from_a_snippet({"page.md": page}, quotable(ROOT))]
    assert found == ["md5($password)", "strlen($tag) === 16", "$key = random_bytes(32); // made up here"]


def hostile_project(make_project, lines: int) -> Path:
    root = make_project()
    source = "\n".join(
        [
            "<?php",
            "",
            "declare(strict_types=1);",
            "",
            "// </code></pre><script>alert(1)</script> and `inline` and ```` four and {{ jinja }} {% raw %}",
            "function f(string $s): string { return \"<b>$s</b>\" . '```'; }",
            *[f"// line {i} *not emphasis* [not a link](javascript:alert(2))" for i in range(lines)],
            "",
        ]
    )
    (root / "runners" / "snippets" / "hostile.php").write_text(source, encoding="utf-8")
    return root


@pytest.mark.parametrize("lines", [0, 40], ids=["short, shown open", "long, collapsed"])
def test_a_snippet_is_shown_as_the_characters_it_holds(make_project, lines: int):
    root = hostile_project(make_project, lines)
    source = (root / "runners" / "snippets" / "hostile.php").read_text(encoding="utf-8")
    page = (
        render.environment(root / "templates").from_string("# Page\n\n{{ snippet('hostile.php') }}\nAfter.\n").render()
    )

    html = markdown.markdown(page, extensions=MARKDOWN_EXTENSIONS)
    assert "<script>" not in html
    assert "<b>" not in html
    assert [code for code in codes(page) if "declare" in code] == [source.rstrip("\n")]
    assert ("??? example" in page) is (lines > 0)
    assert "runners/tests/Snippets/HostileTest.php" in page, "it names the test that runs it"
    assert html.rstrip().endswith("<p>After.</p>"), "nothing after the snippet is swallowed by it"


def test_a_fence_is_longer_than_any_run_of_backticks_in_the_file():
    assert render.fenced("a ``` b").startswith("````php\n")
    assert render.fenced("a ```````` b").splitlines()[-1] == "`" * 9
    assert render.fenced("plain").startswith("```php\n")


def test_a_snippet_that_needs_another_brings_it(make_project):
    root = make_project()
    page = render.environment(root / "templates").from_string("{{ snippet('record-in-one-call.php') }}").render()
    shown = [code for code in codes(page) if "declare(strict_types=1);" in code]
    assert [snippets.normalised(code) for code in shown] == [
        snippets.normalised((ROOT / "runners" / "snippets" / name).read_text(encoding="utf-8"))
        for name in ("record-in-one-call.php", "aes-256-gcm.php")
    ]


def test_a_snippet_name_that_is_not_a_file_of_runners_snippets_is_refused(make_project):
    root = make_project()
    template = render.environment(root / "templates").from_string("{{ snippet(name) }}")
    for name in ("../bench.php", "missing.php", "aes-256-gcm.txt"):
        with pytest.raises(snippets.SnippetError):
            template.render(name=name)


def section(page: str, key: str) -> str:
    """One pitfall's section: from its heading to the end of its collapsed block (or the next part)."""
    start = page.index(f"{{: #{key} }}")
    ends = [i for i in (page.find("</details>", start), page.find("\n## ", start)) if i != -1]
    return page[start : min(ends, default=len(page))]


def test_a_fix_for_correctness_is_recommended_whatever_the_timing_and_one_for_speed_only_where_it_pays(
    make_project,
):
    root = make_project(FIXTURE_RUN)
    path = root / "data" / "runs" / FIXTURE_RUN.name / "pitfalls.csv"
    with path.open(encoding="utf-8", newline="") as file:
        rows = list(csv.DictReader(file))
    # Both ways of PSS, of the AEAD record and of openssl.cnf take the same time: no measurable difference.
    even = {"pss-padding-in-php", "aead-call-per-field", "pkey-new-config"}
    for row in rows:
        if row["pitfall"] in even:
            row["elapsed_ns"], row["iterations"] = "1000000", "10"
    with path.open("w", encoding="utf-8", newline="") as file:
        writer = csv.DictWriter(file, fieldnames=list(rows[0]), lineterminator="\n")
        writer.writeheader()
        writer.writerows(rows)
    reseal(path.parent)

    generated = site.build(root)
    page = generated.pages["experiments/pitfalls.md"]
    for key in ("pss-padding-in-php", "aead-call-per-field"):
        text = section(page, key)
        assert "no measurable difference" in text, key
        assert "**Fix**, for correctness: recommended whatever the timing says." in text, key
        assert "not worth it" not in text, key
    assert "OpenSSL checks the padding with exactly the key&#39;s parameters" in section(page, "pss-padding-in-php")
    speed = section(page, "pkey-new-config")
    assert "no measurable difference" in speed
    assert "(not worth it on this machine: the measured difference is not in its favour)" in speed

    jwt = generated.pages["experiments/jwt.md"]
    pss = next(line for line in jwt.splitlines() if "(pitfalls.md#pss-padding-in-php)" in line)
    assert "The fix, for correctness whatever the timing: [<code>runners/snippets/ps256-rsassa-pss-key.php" in pss
    keygen = next(
        line for line in generated.pages["experiments/ec_keygen.md"].splitlines() if "#pkey-new-config)" in line
    )
    assert "The fix" not in keygen, "a fix for speed that does not pay here is not offered"


def test_each_fix_is_shown_once_per_page_with_the_test_that_runs_it(fixture_run_site: site.GeneratedSite):
    page = fixture_run_site.pages["experiments/pitfalls.md"]
    policy = load_pitfalls_policy(ROOT / "data" / "policy" / "pitfalls.yaml")
    for name in {entry.fix.snippet.name for entry in policy.values() if entry.key != "cipher-setup-16b"}:
        assert page.count(f'??? example "The fix: runners/snippets/{name}"') == 1, name
        assert f"runners/tests/Snippets/{snippets.phpunit_class(name)}.php" in page
    assert page.count("shown [above](#pem-vs-object-rsa2048)") == 2, "the P-256 and details pitfalls share its fix"


def test_every_snippet_names_the_test_the_pages_name():
    """The comment of each file and the pages name the same PHPUnit class (EverySnippetIsTestedTest holds
    the classes to that name)."""
    for snippet in snippets.every(ROOT):
        assert f"PHPUnit runs this file: {snippet.test} (phpcrypto-bench)" in snippets.normalised(snippet.source)
        assert (ROOT / snippet.test).is_file(), snippet.test
