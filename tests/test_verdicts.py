"""One verdict per primitive (issue 25): the table in data/policy/ holds each primitive once, its
aliases resolve to that entry (checked against OpenSSL for curves), nothing the project does not
measure is recommended, and the built site prints one status per primitive wherever it names it."""

from __future__ import annotations

import hashlib
import re
import shutil
import subprocess
from collections import defaultdict
from html.parser import HTMLParser
from pathlib import Path

import pytest

from phpcb.data.schema import load_schemas
from phpcb.data.verdicts import STATUS_TEXT, load_table
from phpcb.errors import DataError
from phpcb.experiments import registry

from .conftest import ROOT, committed_runs

POLICY = ROOT / "data" / "policy"
TABLE = load_table(POLICY)


def write_policy(directory: Path, **files: str) -> Path:
    directory.mkdir()
    for name, text in files.items():
        (directory / f"{name}.yaml").write_text(text, encoding="utf-8")
    return directory


REFERENCE = 'references:\n  r: {title: "A standard", url: "https://example.org/"}\n'


@pytest.mark.parametrize(
    ("files", "message"),
    [
        (
            {
                "a": REFERENCE + "verdicts:\n  x: {kind: cipher, status: acceptable, reason: r, references: [r]}\n",
                "b": REFERENCE + "verdicts:\n  x: {kind: cipher, status: acceptable, reason: s, references: [r]}\n",
            },
            "verdicts/x: also named in a.yaml: one verdict each",
        ),
        (
            {"a": "verdicts:\n  x: {kind: cipher, status: recommended, reason: fast}\n"},
            "verdicts/x: recommended, but no experiment measures it (measured_by)",
        ),
        (
            {"a": "verdicts:\n  x: {kind: cipher, status: acceptable, reason: r}\naliases:\n  x: y\n"},
            "aliases/x: is also a primitive of its own",
        ),
        (
            {"a": "verdicts:\n  x: {kind: cipher, status: acceptable, reason: r}\naliases:\n  y: z\n  z: x\n"},
            "aliases/y: stands for 'z', itself an alias",
        ),
        (
            {"a": "aliases:\n  y: x\n", "b": "aliases:\n  y: z\n"},
            "aliases/y: already stands for 'x'",
        ),
        (
            {"a": "verdict_rules:\n  - {kind: cipher, match: '.', status: recommended, reason: r}\n"},
            "a rule names no primitive it measures, so it never recommends",
        ),
        (
            {
                "a": "verdict_rules:\n  - {kind: cipher, match: 'x', status: acceptable, reason: r}\n",
                "b": "verdict_rules:\n  - {kind: cipher, match: 'y', status: acceptable, reason: r}\n",
            },
            "the cipher rules are in a.yaml: one ordered list per kind",
        ),
        (
            {"a": "verdicts:\n  x: {kind: cipher, status: acceptable, reason: r, references: [nope]}\n"},
            "verdicts/x: references ['nope'] are not defined under references",
        ),
    ],
    ids=[
        "named twice",
        "recommended unmeasured",
        "alias is a primitive",
        "alias of an alias",
        "alias twice",
        "rule recommends",
        "rules in two files",
        "undefined reference",
    ],
)
def test_the_table_refuses_what_would_give_a_primitive_two_verdicts_or_an_unearned_one(tmp_path, files, message):
    with pytest.raises(DataError) as caught:
        load_table(write_policy(tmp_path / "policy", **files))
    assert message in str(caught.value)


def test_an_alias_is_the_primitive_it_stands_for():
    assert TABLE.lookup("cipher", "sodium-aes256gcm") == TABLE.lookup("cipher", "aes-256-gcm")
    assert TABLE.lookup("cipher", "sodium-xchacha20poly1305-ietf").primitive == "xchacha20-poly1305"
    assert TABLE.named("key", "wap-wsg-idm-ecid-wtls12") == TABLE.named("key", "secp224r1")


def test_a_name_no_entry_holds_takes_the_first_matching_rule_of_its_kind():
    assert TABLE.lookup("cipher", "aes-128-ecb").notes[0].startswith("ECB")
    assert TABLE.lookup("cipher", "camellia-128-ecb").notes[0].startswith("ECB"), "ECB before the family rules"
    unknown = TABLE.lookup("cipher", "made-up")
    assert (unknown.status, unknown.primitive) == ("not_recommended", "made-up")


@pytest.mark.parametrize("name", sorted(n for n, e in TABLE.entries.items() if e.verdict.status == "recommended"))
def test_every_recommended_primitive_is_measured_by_a_committed_run(name):
    """`measured_by` names a registered experiment, and a committed run of it has rows for the primitive
    (under its own name or an alias): what the project did not measure is never recommended."""
    entry = TABLE.entries[name]
    experiments = {e.name: e for e in registry.discover()}
    assert entry.measured_by in experiments, f"{name}: measured_by {entry.measured_by!r} is no experiment"
    table_name = experiments[entry.measured_by].measurements(SCHEMAS).name
    names = {name} | {alias for alias, target in TABLE.aliases.items() if target == name}
    for run in committed_runs():
        for row in run.tables.get(table_name, []):
            if names & {value for value in row.values() if isinstance(value, str)}:
                return
    pytest.fail(f"{name}: no committed run of {entry.measured_by} has rows for {sorted(names)}")


SCHEMAS = load_schemas(ROOT / "data" / "schema")


def test_every_entry_and_rule_cites_a_linked_source_or_says_it_is_the_default():
    for name, entry in TABLE.entries.items():
        assert entry.verdict.references, name
        assert all(r.url.startswith("https://") for r in entry.verdict.references), name
    for rule in TABLE.rules:
        if rule.pattern.pattern != ".":
            assert rule.references or rule.notes[0].startswith(("The null cipher", "A TLS-internal")), rule.pattern


def explicit_parameters(curve: str) -> str | None:
    """The curve's parameters as `openssl ecparam` prints them, without the name and the seed."""
    result = subprocess.run(
        ["openssl", "ecparam", "-name", curve, "-param_enc", "explicit", "-text", "-noout"],
        capture_output=True,
        text=True,
        check=False,
    )
    if result.returncode != 0 or not result.stdout:
        return None
    text = result.stdout.split("Seed:")[0]
    return hashlib.sha256("\n".join(text.splitlines()[1:]).encode()).hexdigest()


def openssl_curves() -> list[str]:
    listed = subprocess.run(["openssl", "ecparam", "-list_curves"], capture_output=True, text=True, check=True)
    return [line.split(":")[0].strip() for line in listed.stdout.splitlines() if ":" in line]


def test_every_curve_alias_has_the_parameters_of_its_curve_and_every_twin_is_declared():
    """The aliases are OpenSSL's own duplicates, found by their explicit parameters (p, a, b, G, n, h):
    each declared pair is identical, and every identical pair OpenSSL lists is declared."""
    listed = openssl_curves()
    curve_aliases = {alias: curve for alias, curve in TABLE.aliases.items() if alias in listed}
    assert len(curve_aliases) >= 8
    for alias, curve in curve_aliases.items():
        assert explicit_parameters(alias) is not None, alias
        assert explicit_parameters(alias) == explicit_parameters(curve), f"{alias} is not {curve}"
    twins: dict[str, list[str]] = defaultdict(list)
    for curve in openssl_curves():
        parameters = explicit_parameters(curve)
        if parameters is not None:
            twins[parameters].append(curve)
    for names in twins.values():
        canonical = {TABLE.canonical(name) for name in names}
        assert len(canonical) == 1, f"{names} are one curve: declare the aliases in data/policy/keys.yaml"


class Verdicts(HTMLParser):
    """Every printed verdict (`<span class="pcb-verdict">`: its primitive, the use it is for where it names
    one, its status and its label), and every table cell that is nothing but a status word (a verdict
    printed without the one way of printing it)."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.found: list[tuple[str, str, str]] = []
        self.bare: list[str] = []
        self._cell: list[str] | None = None
        self._span: tuple[str, str] | None = None
        self._span_text: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = dict(attrs)
        if tag in ("td", "th"):
            self._cell = []
        if tag == "span" and "pcb-verdict" in (found.get("class") or ""):
            use = found.get("data-use") or ""
            primitive = found.get("data-primitive") or ""
            self._span = (f"{primitive} for {use}" if use else primitive, found.get("data-status") or "")
            self._span_text = []

    def handle_endtag(self, tag: str) -> None:
        if tag == "span" and self._span is not None:
            self.found.append((*self._span, "".join(self._span_text)))
            self._span = None
        if tag in ("td", "th") and self._cell is not None:
            text = " ".join("".join(self._cell).split())
            if text in STATUS_TEXT.values():
                self.bare.append(text)
            self._cell = None

    def handle_data(self, data: str) -> None:
        if self._span is not None:
            self._span_text.append(data)
            return
        if self._cell is not None:
            self._cell.append(data)


def test_the_built_site_gives_each_primitive_one_verdict_wherever_it_names_it(built_site):
    seen: dict[str, set[str]] = defaultdict(set)
    where: dict[str, set[str]] = defaultdict(set)
    for page in sorted(built_site.rglob("*.html")):
        parser = Verdicts()
        parser.feed(page.read_text(encoding="utf-8"))
        relative = str(page.relative_to(built_site))
        assert parser.bare == [], f"{relative}: a status printed without its primitive: {parser.bare}"
        for primitive, status, text in parser.found:
            assert text.startswith(STATUS_TEXT[status]), (relative, primitive)
            seen[primitive].add(status)
            where[primitive].add(relative)
    assert len(seen) > 100, "the inventory, the curves and the algorithms are all rated somewhere"
    twice = {p: sorted(s) for p, s in seen.items() if len(s) > 1}
    assert twice == {}, f"two verdicts for one primitive: {twice}"
    for primitive, statuses in seen.items():
        entry = TABLE.entries.get(primitive)
        if entry is not None:
            assert statuses == {entry.verdict.status}, primitive
        for entry in TABLE.entries.values():  # a verdict for another use than its entry's own
            for other in entry.verdict.uses:
                if primitive == f"{other.primitive} for {other.use}":
                    assert statuses == {other.status}, primitive
    assert {"experiments/aead/index.html", "experiments/symmetric/index.html"} <= where["aes-128-ccm"], (
        "the AEAD page and the cipher inventory both rate CCM"
    )


def test_a_primitive_named_in_two_policy_files_stops_the_build(tmp_path):
    shutil.copytree(POLICY, tmp_path / "policy")
    symmetric = tmp_path / "policy" / "symmetric.yaml"
    text = symmetric.read_text(encoding="utf-8")
    extra = '  aes-128-ccm: {kind: cipher, status: acceptable, reason: "again"}\n'
    symmetric.write_text(re.sub(r"^verdicts:\n", "verdicts:\n" + extra, text, flags=re.M), encoding="utf-8")
    with pytest.raises(DataError, match=r"verdicts/aes-128-ccm: also named in aead\.yaml"):
        load_table(tmp_path / "policy")


def test_a_published_parameter_set_no_run_measured_is_not_recommended_here(built_site):
    """Issue 37: RFC 9106's first option (2 GiB, t = 1, p = 4) read "recommended" though no run measured it."""
    page = (built_site / "experiments" / "argon2" / "index.html").read_text(encoding="utf-8")
    row = next(r for r in re.findall(r"<tr>.*?</tr>", page, re.DOTALL) if "RFC 9106, first recommended option" in r)
    assert "not measured in this run" in row
    assert "pcb-verdict" not in row
    assert "no verdict here: not measured" in row
