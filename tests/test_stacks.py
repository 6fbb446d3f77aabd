"""Stacks: what a run records of the software under it, the sets of `make bench-stacks`, and the page
that sets two stacks side by side. Fixture: tests/fixtures/stack-set/, two rounds of the jwt experiment on
the host's PHP 8.2 and Debian 13's PHP 8.4 (fake clock), made by `make bench-stacks ROUNDS=2 ONLY=jwt` with
PHPCB_STACKS_RUNNER_ARGS=--fake-clock, then moved there."""

from __future__ import annotations

import dataclasses
import json
import re
import shutil
from pathlib import Path

import pytest

from phpcb.commands.main import main
from phpcb.compare import stacks as compare_stacks
from phpcb.data import stacks
from phpcb.data.loader import load_run
from phpcb.data.schema import load_schemas
from phpcb.data.selection import SiteConfig
from phpcb.errors import DataError
from phpcb.experiments import registry
from phpcb.experiments.contexts import Contexts, Project
from phpcb.pages import build as site
from phpcb.pages import versions_page
from phpcb.presentation.render import environment

from .conftest import FIXTURES, ROOT, project_with, scale_signing

SET_DIR = FIXTURES / "stack-set"
SET_FILE = next((SET_DIR / "stacks").glob("*.json"))
SCHEMAS = load_schemas(ROOT / "data" / "schema")
RUNS = sorted((SET_DIR / "runs").iterdir())


def project(tmp_path: Path, slower_newer: float | None = None) -> Path:
    """A project holding the set's runs and the set; with `slower_newer`, the newer stack's ES256 signing
    times multiplied by it (and re-sealed) in every round."""
    root = project_with(tmp_path, *RUNS)
    (root / "data" / "stacks").mkdir()
    shutil.copy(SET_FILE, root / "data" / "stacks" / SET_FILE.name)
    if slower_newer is not None:
        for run in (root / "data" / "runs").iterdir():
            if run.name.endswith("-debian13"):
                scale_signing(run, "ES256", slower_newer)
    return root


def loaded(root: Path) -> dict[str, object]:
    return {run.name: load_run(run, SCHEMAS) for run in (root / "data" / "runs").iterdir()}


def test_a_run_records_the_library_php_loaded_beside_its_header():
    newer = load_run(next(r for r in RUNS if r.name.endswith("-debian13")), SCHEMAS)
    stack = stacks.stack_of(newer.manifest)
    assert (stack.name, stack.php, stack.release) == ("debian13", "8.4.27", "PHP 8.4 + OpenSSL 3.5")
    assert f"OpenSSL {stack.openssl} " in newer.manifest["libraries"]["openssl_library"]
    assert stack.short_label.startswith("Debian 13 · PHP 8.4.27 · OpenSSL 3.5.")


def test_an_upgraded_run_never_passes_its_header_off_as_the_library():
    old = load_run(ROOT / "data" / "runs" / "20261125T1446Z-amd-epyc-fb7fc6-php8.2", SCHEMAS)
    stack = stacks.stack_of(old.manifest)
    assert stack.openssl is None
    assert stack.release == "PHP 8.2 + OpenSSL 3.0", "grouped by the header's series"
    assert stack.openssl_words == (
        "OpenSSL 3.0.22 (the header PHP was built with; the library it loaded was not recorded)"
    )
    assert stack.short_label == "Debian 12 · PHP 8.2.36 · OpenSSL 3.0.22 (header)"


def test_the_native_limit_of_another_library_is_named():
    base = stacks.Stack("host", "Debian GNU/Linux 12 (bookworm)", "8.2.36", "3.0.19", "3.0.22", "3.0.19")
    assert base.native_mismatch is None, "the command and PHP load the same library"
    other = stacks.Stack("host", "Debian", "8.2.36", "3.0.19", "3.0.22", "3.5.1")
    assert other.native_mismatch == (
        "the `openssl` command that measured the native limit runs on OpenSSL 3.5.1, PHP on OpenSSL 3.0.19: "
        "the two are not the same library"
    )
    unknown = stacks.Stack("host", "Debian", "8.2.36", None, "3.0.22", "3.5.1")
    assert unknown.native_mismatch is None, "nothing is claimed where PHP's library was not recorded"


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"format_version": 2}, "format_version: expected 1, got 2"),
        ({"stacks": ["host"]}, "stacks: expected a list of 2 names"),
        ({"stacks": ["host", "host"]}, "stacks: expected two different stacks"),
        ({"rounds": [["a", "b"]]}, "rounds: expected at least 2 rounds"),
        ({"rounds": [["a", "b"], ["a", "c"]]}, "rounds: a run is named twice"),
        ({"machine": "other"}, "machine: expected the machine the file is named after, got 'other'"),
        ({"profile": "slow"}, "profile: expected quick or full, got 'slow'"),
        ({"extra": 1}, "unknown entries \\['extra'\\]"),
    ],
)
def test_a_malformed_set_is_one_line_naming_what(change, message, tmp_path):
    document = {**json.loads(SET_FILE.read_text()), **change}
    with pytest.raises(DataError, match=message):
        stacks.parse(document, tmp_path / SET_FILE.name)


def test_a_set_says_what_it_holds(tmp_path):
    found = stacks.parse(json.loads(SET_FILE.read_text()), SET_FILE)
    runs = loaded(project(tmp_path))
    stacks.check(found, runs)
    swapped = stacks.StackSet(
        found.set_id, found.path, found.machine, found.profile, ("debian13", "host"), found.rounds
    )
    with pytest.raises(DataError, match="ran in stack 'host', not 'debian13'"):
        stacks.check(swapped, runs)
    quick_as_full = stacks.StackSet(found.set_id, found.path, found.machine, "full", found.stacks, found.rounds)
    with pytest.raises(DataError, match="a quick run, not full"):
        stacks.check(quick_as_full, runs)
    missing = {k: v for k, v in runs.items() if not k.startswith("20260101T0002Z")}
    with pytest.raises(DataError, match=r"rounds\[1\]: 20260101T0002Z-amd-epyc-fb7fc6-php8\.2: no such run"):
        stacks.check(found, missing)


def analyse(root: Path) -> compare_stacks.StackComparison:
    runs = loaded(root)
    (found,) = stacks.load_sets(root, list(runs.values()))
    contexts = Contexts(Project(root), SCHEMAS)
    return compare_stacks.analyse(found, runs, SCHEMAS, registry.discover(), contexts)


def test_the_same_speed_on_both_stacks_is_no_change(tmp_path):
    comparison = analyse(project(tmp_path))
    (jwt,) = comparison.report.experiments
    assert {e.verdict.value for e in jwt.classes} == {"~"}
    assert all(e.ratio == pytest.approx(1.0) for e in jwt.classes)
    assert comparison.changed_statements == []


def test_es256_signing_a_third_slower_on_the_newer_stack_is_found_in_its_cases_and_statements(tmp_path):
    comparison = analyse(project(tmp_path, slower_newer=1.3))
    (jwt,) = comparison.report.experiments
    flagged = {e.label for e in jwt.cases if e.verdict.value == "slower"}
    assert flagged, "the ES256 signing cases moved beyond their class"
    assert all("ES256" in label and "sign" in label for label in flagged)
    es256 = next(e for e in jwt.cases if e.label in flagged)
    assert es256.ratio == pytest.approx(1.3, rel=0.05)
    assert comparison.older.release == "PHP 8.2 + OpenSSL 3.0"
    assert comparison.newer.release == "PHP 8.4 + OpenSSL 3.5"


def test_the_versions_page_names_both_stacks_and_the_libraries(tmp_path):
    root = project(tmp_path, slower_newer=1.3)
    page = site.build(root).pages[versions_page.PAGE]
    assert "From **PHP 8.2 + OpenSSL 3.0** to **PHP 8.4 + OpenSSL 3.5** on `amd-epyc-zen5-2c-5330ed`" in page
    assert "| PHP | 8.2.36 | 8.4.27 |" in page
    assert "PHP was built with 3.5.7&#39;s header" in page or "PHP was built with 3.5.7's header" in page
    assert re.search(r"\d+ of \d+ cases changed \(0 faster, \d+ slower\); the largest:", page)
    assert "ES256" in page.split("## What reads differently")[0]
    assert "&#91;" not in page, "the page's own links are Markdown, not escaped text"


@pytest.mark.parametrize("differing", [0, 1])
def test_the_answer_links_to_the_statements_that_read_differently(tmp_path, differing):
    root = project(tmp_path, slower_newer=1.3)
    comparison = analyse(root)
    change = compare_stacks.StatementChange("jwt", "jwt.fastest", "Fastest signature", "ES256", "Ed25519", 2, 2)
    comparison = dataclasses.replace(comparison, statements=(change,) * differing)
    config = SiteConfig.load(root / "data" / "site.yaml")
    page = versions_page.render_page(environment(root / "templates"), [comparison.stack_set], comparison, config)
    answer = page.split("\n\n| |")[0]
    assert ("in every round: Fastest signature, ES256 → Ed25519 ([below](#what-reads-differently))." in answer) == bool(
        differing
    ), answer


def test_without_a_set_the_page_says_how_to_make_one(tmp_path):
    root = project_with(tmp_path, RUNS[0])
    page = site.build(root).pages[versions_page.PAGE]
    assert "No stacks compared yet" in page
    assert "make bench-stacks" in page


def test_the_reference_stack_is_declared_and_shown_first(tmp_path):
    config = SiteConfig(Path("site.yaml"), "amd-epyc-zen5-2c-5330ed", {}, "debian13")
    runs = list(loaded(project(tmp_path)).values())
    assert versions_page.chosen_set([], config) is None
    found = stacks.load_sets(project(tmp_path / "again"), runs)
    assert versions_page.chosen_set(found, config) == found[0]


def test_the_command_records_a_set_from_runs_in_the_order_they_ran(tmp_path, capsys):
    root = project(tmp_path)
    (root / "data" / "stacks" / SET_FILE.name).unlink()
    ordered = [root / "data" / "runs" / name for pair in json.loads(SET_FILE.read_text())["rounds"] for name in pair]
    # Round 2 ran debian13 first (ABBA): the command pairs each round by stack, whichever ran first.
    ordered[2], ordered[3] = ordered[3], ordered[2]
    assert main(["--root", str(root), "stacks", "--record", "--stacks", "host,debian13", *map(str, ordered)]) == 0
    written = json.loads((root / "data" / "stacks" / SET_FILE.name).read_text())
    assert written == json.loads(SET_FILE.read_text())
    out = capsys.readouterr().out
    assert "2 rounds of host and debian13 on amd-epyc-zen5-2c-5330ed" in out
    assert "## A/B: PHP 8.4 + OpenSSL 3.5 against PHP 8.2 + OpenSSL 3.0, 2 rounds on one machine" in out


def test_the_command_refuses_a_round_of_one_stack(tmp_path, capsys):
    root = project(tmp_path)
    by_stack = sorted(RUNS, key=lambda r: r.name.endswith("-debian13"))  # both host runs, then both debian13 runs
    in_order = [root / "data" / "runs" / r.name for r in by_stack]
    status = main(["--root", str(root), "stacks", "--record", "--stacks", "host,debian13", *map(str, in_order)])
    assert status != 0
    assert (
        "round 1: runs of stacks ['host', 'host'], expected one of each of ['host', 'debian13']"
        in capsys.readouterr().err
    )


def test_a_page_says_where_the_other_stack_answers_differently(tmp_path):
    comparison = analyse(project(tmp_path))
    assert compare_stacks.other_stack_caveat(comparison, "jwt", "debian13") is None, "nothing differs"
    change = compare_stacks.StatementChange("jwt", "jwt.fastest", "Fastest signature", "ES256", "Ed25519", 2, 2)
    unsteady = compare_stacks.StatementChange("jwt", "jwt.other", "Another", "A", "B", 1, 2)
    offered = compare_stacks.StatementChange("jwt", "jwt.new", "A new algorithm", None, "recommended", 2, 2)
    differing = dataclasses.replace(comparison, statements=(change, unsteady, offered))
    on_newer = compare_stacks.other_stack_caveat(differing, "jwt", "debian13")
    assert on_newer == (
        "On PHP 8.2 + OpenSSL 3.0 (stack host, measured beside this one in 2 rounds on amd-epyc-zen5-2c-5330ed), "
        "this page's statements read differently: Fastest signature: ES256"
    ), "only what differs in every round, on the other stack's side"
    on_older = compare_stacks.other_stack_caveat(differing, "jwt", "host")
    assert on_older is not None
    assert on_older.startswith("On PHP 8.4 + OpenSSL 3.5 (stack debian13")
    assert on_older.endswith("Fastest signature: Ed25519")
    assert compare_stacks.other_stack_caveat(differing, "aead", "debian13") is None
    assert compare_stacks.other_stack_caveat(differing, "jwt", "debian12") is None, "a run of neither stack"
    many = tuple(compare_stacks.StatementChange("jwt", f"jwt.s{i}", f"Statement {i}", "A", "B", 2, 2) for i in range(5))
    capped = compare_stacks.other_stack_caveat(dataclasses.replace(comparison, statements=many), "jwt", "debian13")
    assert capped is not None
    assert capped.endswith("Statement 2: A; and 2 more (the PHP and OpenSSL versions page lists them)")
    assert "Statement 3" not in capped
