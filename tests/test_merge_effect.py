"""What merging a pull request changes on the published pages: which run each page shows before and
after, the statements that change, and why an added run does not show (publish/merge_effect.py)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from phpcb.data.loader import Run, load_runs
from phpcb.data.schema import Schemas, load_schemas
from phpcb.data.selection import SiteConfig
from phpcb.experiments import registry
from phpcb.experiments.contexts import Contexts, Project
from phpcb.presentation.advice import diff
from phpcb.publish.merge_effect import LEAD_HEADING, MergeEffect, PageEffect, RunRef, effect, lead

from .conftest import FIXTURE_RUN, reseal, scale_signing

FIXTURE_ID = FIXTURE_RUN.name
NEW_ID = "20260102T0000Z-fixture-php8.2"
MACHINE = "intel-xeon-fixture"


def copy_run(runs: Path, run_id: str, **manifest_changes: object) -> Path:
    """The fixture run under another id (a day later), its manifest changed as given, re-sealed."""
    target = runs / run_id
    target.mkdir(parents=True)
    for path in FIXTURE_RUN.iterdir():
        (target / path.name).write_bytes(path.read_bytes())
    manifest = json.loads((target / "manifest.json").read_text())
    manifest.update({"run_id": run_id, "started_utc": "2026-01-02T00:00:00Z", **manifest_changes})
    (target / "manifest.json").write_text(json.dumps(manifest))
    reseal(target)
    return target


def speed_up_es512_signing(run: Path, factor: float = 40.0) -> None:
    """ES512 signing `factor` times faster: the JWT page's pick for many signers, a tie of ES256, ES384
    and EdDSA in the fixture, becomes ES512, outside that tie (a change, not a move within a tie)."""
    scale_signing(run, "ES512", 1 / factor)


@pytest.fixture
def schemas() -> Schemas:
    return load_schemas(FIXTURE_RUN.parents[3] / "data" / "schema")


def runs_in(directory: Path, schemas: Schemas) -> list[Run]:
    return load_runs(directory, schemas)


def merged(before: list[Run], after: list[Run], schemas: Schemas, machine: str = MACHINE) -> MergeEffect:
    root = FIXTURE_RUN.parents[3]
    config = SiteConfig(Path("data/site.yaml"), machine, {})
    return effect(before, after, config, Contexts(Project(root), schemas), Contexts(Project(root), schemas))


def sides(tmp_path: Path) -> tuple[Path, Path]:
    before, after = tmp_path / "before", tmp_path / "after"
    for side in (before, after):
        copy_run(side, FIXTURE_ID, started_utc="2026-01-01T00:00:00Z")
    return before, after


def page(found: MergeEffect, experiment: str) -> PageEffect:
    return next(p for p in found.pages if p.experiment == experiment)


def test_a_newer_run_of_the_reference_machine_takes_over_every_page_it_has(tmp_path: Path, schemas: Schemas):
    before, after = sides(tmp_path)
    copy_run(after, NEW_ID)
    found = merged(runs_in(before, schemas), runs_in(after, schemas), schemas)
    assert [r.run_id for r in found.added] == [NEW_ID]
    having = [p for p in found.pages if p.before is not None]
    assert having, "the fixture run has results for some experiment"
    for shown in having:
        assert (shown.before.run_id, shown.after.run_id) == (FIXTURE_ID, NEW_ID), shown.experiment
        assert shown.changes
        assert not shown.rewritten
    assert "every experiment page keeps its run" not in lead(found)


def test_the_statements_are_the_two_runs_advice_diffed(tmp_path: Path, schemas: Schemas):
    before, after = sides(tmp_path)
    speed_up_es512_signing(copy_run(after, NEW_ID))
    old_runs, new_runs = runs_in(before, schemas), runs_in(after, schemas)
    found = merged(old_runs, new_runs, schemas)
    jwt = next(e for e in registry.discover() if e.name == "jwt")
    contexts = Contexts(Project(FIXTURE_RUN.parents[3]), schemas)
    old = jwt.advice(contexts.context(jwt, next(r for r in old_runs if r.run_id == FIXTURE_ID)))
    new = jwt.advice(contexts.context(jwt, next(r for r in new_runs if r.run_id == NEW_ID)))
    expected = diff(old, new)
    assert [c for c in expected if not c.tie], "ES512 signing 40 times faster changes what the JWT page says"
    assert list(page(found, "jwt").statements) == expected
    text = lead(found)
    for change in expected:
        if not change.tie:
            assert change.label.replace("_", "\\_") in text


def test_a_quick_run_beside_a_full_one_changes_no_page_and_says_why(tmp_path: Path, schemas: Schemas):
    before, after = tmp_path / "before", tmp_path / "after"
    for side in (before, after):
        copy_run(side, FIXTURE_ID, started_utc="2026-01-01T00:00:00Z", profile="full")
    copy_run(after, NEW_ID, profile="quick")
    found = merged(runs_in(before, schemas), runs_in(after, schemas), schemas)
    assert not any(p.changes for p in found.pages)
    assert found.statements == ()
    text = lead(found)
    assert "**No statement on the published pages changes** (every experiment page keeps its run)." in text
    assert f"{NEW_ID} is a quick run: a quick run never replaces a full one" in text
    assert f"Runs page adds `{NEW_ID}`" in text


def test_a_run_rewritten_under_its_own_id_is_named_and_its_statements_diffed(tmp_path: Path, schemas: Schemas):
    before, after = sides(tmp_path)
    speed_up_es512_signing(after / FIXTURE_ID)
    found = merged(runs_in(before, schemas), runs_in(after, schemas), schemas)
    jwt = page(found, "jwt")
    assert jwt.rewritten
    assert jwt.changes
    assert [c for c in jwt.statements if not c.tie]
    assert found.added == ()
    assert found.removed == ()
    assert "its files rewritten" in lead(found)
    untouched = page(found, "aead")
    assert untouched.rewritten, "the seal covers the run's every file: the whole run was rewritten"


def test_a_deleted_run_gives_its_pages_back_to_the_run_before_it(tmp_path: Path, schemas: Schemas):
    before, after = sides(tmp_path)
    copy_run(before, NEW_ID)
    found = merged(runs_in(before, schemas), runs_in(after, schemas), schemas)
    assert [r.run_id for r in found.removed] == [NEW_ID]
    assert {(p.before.run_id, p.after.run_id) for p in found.pages if p.before} == {(NEW_ID, FIXTURE_ID)}
    assert f"Runs page drops `{NEW_ID}`" in lead(found)


def test_another_runner_commit_is_named_as_a_confounder_not_a_finding(tmp_path: Path, schemas: Schemas):
    before, after = sides(tmp_path)
    speed_up_es512_signing(copy_run(after, NEW_ID, git_commit="f" * 40))
    found = merged(runs_in(before, schemas), runs_in(after, schemas), schemas)
    jwt = page(found, "jwt")
    assert any(c.startswith("runner commit ") and c.endswith(" → ffffffffffff") for c in jwt.confounders)
    assert "**Confounders, not findings**" in lead(found)


def test_everything_the_lead_prints_from_data_is_escaped():
    hostile = RunRef("20260101T0000Z-x-php8.2", "quick", "<img src=x onerror=alert(1)>|*", "abc", 7)
    shown = PageEffect("aead", "AEAD", hostile, hostile, False, (), ("<b>why</b>",))
    text = lead(MergeEffect((shown,), (hostile,), (), ()))
    assert "<img" not in text
    assert "<b>" not in text
    assert "&lt;img src=x onerror=alert(1)&gt;&#124;\\*" in text
    assert text.startswith(LEAD_HEADING)
