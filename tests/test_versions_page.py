"""The PHP and OpenSSL versions page (issue 46.5): its newer/older columns hold each case's own newer over
older time (never a ratio against its class, which called a case that stood still "slower" while its class
ran 2.5× faster); cases decide and the answer names the largest; the pages' headline ratios are set side by
side on both stacks (GCM over CCM 4.8× → 19×); the inventory counts every item a stack lists, so what it
lists as new is never "none new"; and one sentence says whether the advice changes."""

from __future__ import annotations

import dataclasses
import math
import re
import shutil
from pathlib import Path
from typing import Any

import pytest

from phpcb.compare import stacks as compare_stacks
from phpcb.data import stacks
from phpcb.data.loader import Run, load_run
from phpcb.data.schema import load_schemas
from phpcb.data.selection import SiteConfig
from phpcb.experiments import registry
from phpcb.experiments.contexts import Contexts, Project
from phpcb.pages import versions_page
from phpcb.presentation.headlines import SECONDS, TIMES, Headline
from phpcb.presentation.render import environment

from .conftest import FIXTURES, ROOT, project_with, scale_signing

SET_DIR = FIXTURES / "stack-set"
SET_FILE = next((SET_DIR / "stacks").glob("*.json"))
SCHEMAS = load_schemas(ROOT / "data" / "schema")
RUNS = sorted((SET_DIR / "runs").iterdir())
ALGS = ("ES256", "ES384", "ES512", "EdDSA", "HS256", "HS384", "HS512", "PS256", "PS384", "PS512", "RS256", "RS384")


def project(tmp_path: Path, newer_signing: dict[str, float]) -> Path:
    """The set's project, the newer stack's signing times of each alg multiplied by its factor in every round."""
    root = project_with(tmp_path, *RUNS)
    (root / "data" / "stacks").mkdir()
    shutil.copy(SET_FILE, root / "data" / "stacks" / SET_FILE.name)
    for run in (root / "data" / "runs").iterdir():
        if run.name.endswith("-debian13"):
            for alg, factor in newer_signing.items():
                scale_signing(run, alg, factor)
    return root


def analyse(root: Path) -> compare_stacks.StackComparison:
    runs = {run.name: load_run(run, SCHEMAS) for run in (root / "data" / "runs").iterdir()}
    (found,) = stacks.load_sets(root, list(runs.values()))
    return compare_stacks.analyse(found, runs, SCHEMAS, registry.discover(), Contexts(Project(root), SCHEMAS))


def page_of(root: Path, comparison: compare_stacks.StackComparison) -> str:
    config = SiteConfig.load(root / "data" / "site.yaml")
    return versions_page.render_page(environment(ROOT / "templates"), [comparison.stack_set], comparison, config)


def answer_of(page: str) -> str:
    return page.split("\n\n| |")[0]


def case_rows(page: str, title: str) -> list[list[str]]:
    """The rows of an experiment's table of cases: label, newer/older (CI), change, verdict."""
    section = page.split(f"### {title}\n")[1].split('<div class="pcb-key-table"')[0]
    rows = [
        line for line in section.splitlines() if line.startswith("| ") and not line.startswith(("| case |", "| --- |"))
    ]
    return [[cell.strip() for cell in row.strip("|").split("|")] for row in rows]


def test_a_case_that_stood_still_while_its_class_moved_is_never_called_faster(tmp_path):
    """Every alg's signing twice as slow on the newer stack except ES256's: the sign classes move ×2, ES256
    stands still. A class-relative column called ES256 '0.500, faster'; its own newer/older is 1.000."""
    comparison = analyse(project(tmp_path, {alg: 2.0 for alg in ALGS if alg != "ES256"}))
    (jwt,) = comparison.cases
    es256 = [c for c in jwt.cases if c.label.startswith("ES256 ") and c.label.endswith(" · sign")]
    rs256 = [c for c in jwt.cases if c.label.startswith("RS256 ") and c.label.endswith(" · sign")]
    assert es256
    assert rs256
    assert all(c.ratio == pytest.approx(1.0, abs=1e-3) and c.verdict.value == "~" for c in es256)
    assert all(c.ratio == pytest.approx(2.0, rel=1e-3) and c.verdict.value == "slower" for c in rs256)
    (classes,) = comparison.report.experiments
    signing = [e for e in classes.classes if e.label.startswith("operation=sign")]
    assert signing
    assert all(e.ratio == pytest.approx(2.0, rel=1e-3) for e in signing), "the class moved"

    rows = case_rows(page_of(tmp_path / "project", comparison), "JWT")
    assert rows, "the cases that changed are listed"
    for label, ratio, change, verdict in rows:
        assert not label.startswith("ES256"), "a case that did not change is not among those that changed"
        assert ratio.startswith("2.000 "), (label, ratio)
        assert (change, verdict) == ("2.00× slower", "slower")


def test_each_listed_case_holds_its_own_newer_over_older_time(tmp_path):
    comparison = analyse(project(tmp_path, {"ES256": 1.3}))
    (jwt,) = comparison.cases
    own = {c.label: c.ratio for c in jwt.cases}
    rows = case_rows(page_of(tmp_path / "project", comparison), "JWT")
    assert {label for label, *_ in rows} == {c.label for c in jwt.largest(versions_page.LARGEST_CASES)}
    for label, ratio, change, verdict in rows:
        assert float(ratio.split(" ")[0]) == pytest.approx(own[label], abs=5e-4)
        assert label.startswith("ES256")
        assert label.endswith(" · sign")
        assert (change, verdict) == ("1.30× slower", "slower")


def test_the_answer_says_cases_decide_and_names_the_largest(tmp_path):
    comparison = analyse(project(tmp_path, {"ES256": 1.3}))
    (jwt,) = comparison.cases
    signing = sum(1 for c in jwt.cases if c.label.startswith("ES256 ") and c.label.endswith(" · sign"))
    answer = answer_of(page_of(tmp_path / "project", comparison))
    assert f"0 of {len(jwt.cases)} cases ran faster and {signing} slower, beyond 2 %" in answer
    assert re.search(r"the largest changes: `ES256 · \d+ · sign` \(JWT\) 1\.30× slower", answer), answer
    assert "classes ran faster and" in answer.split("Case by case")[1], "classes come after the cases"


def statement(older: str | None, newer: str | None, rounds: int = 2) -> compare_stacks.StatementChange:
    return compare_stacks.StatementChange("jwt", "jwt.fastest", "Fastest signature", older, newer, rounds, 2)


@pytest.mark.parametrize(
    ("statements", "said"),
    [
        (
            (),
            "**no advice changes**: every pick, recommendation, order and verdict both stacks' runs make reads "
            "the same in every round.",
        ),
        (
            (statement("ES256", "EdDSA"),),
            "**the advice changes** in 1 statement, in every round: Fastest "
            "signature, ES256 → EdDSA ([below](#what-reads-differently)).",
        ),
        (
            (statement(None, "not_evaluated"),),
            "**no advice changes**: every pick, recommendation, order and "
            "verdict both stacks' runs make reads the same in every round. 1 statement is made by one stack's run "
            "only, about what only it offers",
        ),
        (
            (statement("ES256", "EdDSA", rounds=1),),
            "**no advice changes**: every pick, recommendation, order and "
            "verdict both stacks' runs make reads the same in every round (1 differs in some rounds only, within "
            "the spread between runs).",
        ),
    ],
)
def test_one_sentence_says_whether_the_advice_changes(tmp_path, statements, said):
    comparison = dataclasses.replace(analyse(project(tmp_path, {})), statements=statements)
    assert said in answer_of(page_of(tmp_path / "project", comparison))
    assert comparison.advice_changes == [s for s in statements if s.older and s.newer and s.rounds == 2]


def test_a_statement_only_one_stack_makes_reads_in_words(tmp_path):
    comparison = dataclasses.replace(analyse(project(tmp_path, {})), statements=(statement(None, "not_evaluated"),))
    page = page_of(tmp_path / "project", comparison)
    assert "| jwt | Fastest signature | not stated | rated not evaluated here |" in page
    assert "not_evaluated" not in page


class Stated:
    """An experiment that states one headline ratio per run, read from a table of values by run id."""

    name = "aead"
    title = "AEAD"

    def __init__(self, values: dict[str, dict[str, float]]) -> None:
        self.values = values

    def headlines(self, context: dict[str, Any]) -> list[Headline]:
        run_id = context["run"].run_id
        return [
            Headline(key, f"{key} (times faster)", TIMES, value, value * 0.95, value * 1.05)
            for key, value in self.values[run_id].items()
        ] + [Headline("time", "a time", SECONDS, 1000.0, 900.0, 1100.0)]


class OwnContexts:
    def context(self, experiment: object, run: Run) -> dict[str, Any]:
        return {"run": run}


def empty_run(run_id: str) -> Run:
    return Run.from_rows(run_id, {"experiments": {"aead": {"status": "ok", "files": []}}}, {})


def test_a_headline_ratio_is_set_side_by_side_on_both_stacks(tmp_path):
    """GCM over CCM at 512 KiB: 4.84× on OpenSSL 3.0, 19.0× on 3.5, in every round; P-256 over P-384 stays."""
    pairs = [(empty_run(f"o{i}"), empty_run(f"n{i}")) for i in range(3)]
    gcm = {"o0": 4.8, "o1": 4.9, "o2": 4.82, "n0": 19.0, "n1": 18.7, "n2": 19.3}
    curves = {"o0": 2.0, "o1": 2.04, "o2": 1.97, "n0": 2.02, "n1": 1.99, "n2": 2.0}
    experiment = Stated({run: {"gcm-over-ccm": gcm[run], "p256-over-p384": curves[run]} for run in gcm})
    found = compare_stacks.headline_changes(pairs, [experiment], OwnContexts())  # type: ignore[arg-type,list-item]
    by_key = {h.key: h for h in found}
    assert set(by_key) == {"gcm-over-ccm", "p256-over-p384"}, "times only: an absolute time is a case"
    moved = by_key["gcm-over-ccm"]
    assert moved.older == pytest.approx(math.exp(sum(math.log(gcm[f"o{i}"]) for i in range(3)) / 3))
    assert moved.newer == pytest.approx(math.exp(sum(math.log(gcm[f"n{i}"]) for i in range(3)) / 3))
    assert moved.effect.ratio == pytest.approx(moved.newer / moved.older)
    assert moved.effect.verdict.value == "slower", "the ratio grew"
    assert by_key["p256-over-p384"].effect.verdict.value == "~"

    comparison = dataclasses.replace(analyse(project(tmp_path, {})), headlines=found)
    assert comparison.changed_headlines == [moved]
    page = page_of(tmp_path / "project", comparison)
    assert "The pages' headline ratios change: gcm-over-ccm (times faster), 4.84× → 19.0×" in answer_of(page)
    row = next(line for line in page.splitlines() if line.startswith("| aead | gcm-over-ccm"))
    # By hand: the logs of 19/4.8, 18.7/4.9 and 19.3/4.82, their mean ± t(0.975, 2) × SD / √3, exponentiated.
    assert row.endswith("| 4.84× | 19.0× | 3.925 (3.688–4.178) | larger |"), row


def inventory_run(run_id: str, ciphers: dict[str, str]) -> Run:
    manifest = {"experiments": {"symmetric": {"status": "ok", "files": []}}}
    rows = [{"cipher": c, "provider": "default", "status": s, "detail": ""} for c, s in ciphers.items()]
    return Run.from_rows(run_id, manifest, {"cipher_inventory.csv": rows})


def test_what_a_stack_lists_is_counted_whatever_it_can_do(tmp_path):
    """OpenSSL 3.5 lists GCM-SIV, which PHP's openssl_encrypt can only use with a tag: it is new, not 'none new'."""
    older = inventory_run("o", {"aes-128-gcm": "aead_needs_tag", "aes-128-cbc": "ok", "des-ede3-cbc": "ok"})
    newer = inventory_run(
        "n",
        {
            "aes-128-gcm": "aead_needs_tag",
            "aes-128-cbc": "ok",
            "aes-128-gcm-siv": "aead_needs_tag",
            "sm4-xts": "unsupported",
        },
    )
    symmetric = [e for e in registry.discover() if e.name == "symmetric"]
    (found,) = compare_stacks.inventories(older, newer, symmetric)
    assert found.both == 2
    assert found.only_newer == (
        compare_stacks.Offer("aes-128-gcm-siv", "aead_needs_tag"),
        compare_stacks.Offer("sm4-xts", "unsupported"),
    )
    assert found.only_older == (compare_stacks.Offer("des-ede3-cbc", "ok"),)

    comparison = dataclasses.replace(analyse(project(tmp_path, {})), inventories=(found,))
    page = page_of(tmp_path / "project", comparison)
    listed = page.split("## What the newer stack offers")[1].split("\n\n", 3)[2]
    assert "2 on both;" in listed
    assert (
        "2 new with PHP 8.4 + OpenSSL 3.5: `aes-128-gcm-siv` (authenticated: openssl&#95;encrypt needs its tag "
        "argument); `sm4-xts` (not offered by this OpenSSL);"
    ) in listed or (
        "2 new with PHP 8.4 + OpenSSL 3.5: `aes-128-gcm-siv` (authenticated: openssl_encrypt needs its tag "
        "argument); `sm4-xts` (not offered by this OpenSSL);"
    ) in listed, listed
    assert "1 gone: `des-ede3-cbc` (round-trips)." in listed
    assert "none new" not in listed
