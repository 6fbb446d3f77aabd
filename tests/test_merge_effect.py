"""What merging a pull request changes on the published pages (publish/statements.py, merge_effect.py):
every statement the pages make, computed on each side's own config and runs, diffed; moves within a tie
and within the intervals counted apart; a rewritten run names the files that really changed."""

from __future__ import annotations

import csv
import io
import json
import shutil
from pathlib import Path

import pytest

from phpcb.publish.merge_effect import CHANGED, INTERVAL, LEAD_HEADING, MergeEffect, PageEffect, RunRef, effect, lead
from phpcb.publish.statements import Snapshot, collect

from .conftest import FIXTURE_RUN, ROOT, project_with, reseal, scale_signing, write_manifest

FIXTURE_ID = FIXTURE_RUN.name
NEW_ID = "20260102T0000Z-fixture-php8.2"
MACHINE = "intel-xeon-unknown-2c-2e892e"
SHOWN_RUN = ROOT / "data" / "runs" / "20261125T0812Z-intel-xeon-fb7fc6-php8.2"  # full: what the pages show


def project(parent: Path, *runs: Path, reference: str = MACHINE) -> Path:
    root = project_with(parent, *runs)
    (root / "data" / "site.yaml").write_text(f"reference_machine: {reference}\npinned: {{}}\n", encoding="utf-8")
    return root


def copy_run(runs: Path, run_id: str, **manifest_changes: object) -> Path:
    """The fixture run under another id (a day later), its manifest changed as given, re-sealed."""
    target = runs / run_id
    shutil.copytree(FIXTURE_RUN, target)
    manifest = json.loads((target / "manifest.json").read_text())
    manifest.update({"run_id": run_id, "started_utc": "2026-01-02T00:00:00Z", **manifest_changes})
    write_manifest(target, manifest)
    reseal(target)
    return target


def scale(run: Path, alg: str, operation: str, factor: float, payloads: tuple[int, ...] = ()) -> int:
    """`alg`'s `operation` timings multiplied by `factor` in jwt.csv (these payloads, or all), re-sealed;
    the rows it scaled."""
    rows = list(csv.DictReader(io.StringIO((run / "jwt.csv").read_text())))
    scaled = 0
    for row in rows:
        chosen = not payloads or int(row["payload_chars"]) in payloads
        if row["alg"] == alg and row["operation"] == operation and chosen:
            row["elapsed_ns"] = str(max(1, round(int(row["elapsed_ns"]) * factor)))
            scaled += 1
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=list(rows[0]), lineterminator="\n")
    writer.writeheader()
    writer.writerows(rows)
    (run / "jwt.csv").write_text(out.getvalue())
    reseal(run)
    return scaled


@pytest.fixture(scope="module")
def fixture_before(tmp_path_factory: pytest.TempPathFactory) -> Snapshot:
    return collect(project(tmp_path_factory.mktemp("before"), FIXTURE_RUN))


@pytest.fixture(scope="module")
def fixture_and_newer(tmp_path_factory: pytest.TempPathFactory) -> Snapshot:
    """The fixture run and a copy of it a day later: the pull request that adds the newer one, or the base
    branch of the one that deletes it."""
    root = project(tmp_path_factory.mktemp("newer"), FIXTURE_RUN)
    copy_run(root / "data" / "runs", NEW_ID)
    return collect(root)


def page(found: MergeEffect, experiment: str) -> PageEffect:
    return next(p for p in found.pages if p.experiment == experiment)


def test_a_rewritten_run_changes_a_claim_and_a_number_and_only_its_jwt_file_is_named(tmp_path: Path):
    """Issue 36: a PR slowed ES256 verification in jwt.csv of the run the pages show by 1.3x and re-sealed
    it: a claim went from reproduced to refuted and the JWT page's number moved, yet the comment said
    nothing changes and marked all 6 pages rewritten though one CSV changed."""
    before = collect(project(tmp_path / "a", SHOWN_RUN, reference="intel-xeon-unknown-2c-2e892e"))
    after_root = project(tmp_path / "b", SHOWN_RUN, reference="intel-xeon-unknown-2c-2e892e")
    rows = scale(after_root / "data" / "runs" / SHOWN_RUN.name, "ES256", "verify", 1.3, payloads=(10, 100))
    assert rows >= 20
    found = effect(before, collect(after_root))
    changed = {c.key: c for c in found.statements}
    assert changed["claim.seed004-es256-steady"].base == "reproduced"
    assert changed["claim.seed004-es256-steady"].new in ("refuted", "changed")
    assert "headline.jwt.verify.ES256" in changed, "the JWT page's headline number moved beyond its interval"
    jwt = page(found, "jwt")
    assert [str(f) for f in jwt.rewritten] == [f"jwt.csv rewritten ({jwt.rewritten[0].rows_after:,} rows)"]
    assert [p.experiment for p in found.pages if p.changes] == ["jwt"], "only the JWT page's files changed"
    text = lead(found)
    assert "**No statement on the published pages changes**" not in text
    assert "| AEAD (GCM vs CCM) | " in text
    assert text.count("unchanged |") == 5
    assert "jwt.csv rewritten" in text
    assert "claim seed004-es256-steady (jwt): reproduced → **" in text


def test_a_pull_request_that_only_changes_the_reference_machine_is_judged_by_each_sides_config(tmp_path: Path):
    """Issue 36: with only reference_machine changed, "Shows now" was computed with the PR's site.yaml and
    named runs the published pages do not show, and the comment said nothing changes."""
    epyc = ROOT / "data" / "runs" / "20261125T1525Z-amd-epyc-fb7fc6-php8.2"
    before = collect(project(tmp_path / "a", FIXTURE_RUN, epyc, reference="amd-epyc-unknown-2c-26292c"))
    after = collect(project(tmp_path / "b", FIXTURE_RUN, epyc, reference=MACHINE))
    found = effect(before, after)
    shown_before = {p.experiment: p.before.run_id for p in found.pages if p.before}
    shown_after = {p.experiment: p.after.run_id for p in found.pages if p.after}
    assert set(shown_before.values()) == {epyc.name}, "the published pages show the base's reference machine"
    assert set(shown_after.values()) == {FIXTURE_ID}
    assert found.statements, "another machine's run on every page changes what they say"
    assert f"| AEAD (GCM vs CCM) | `{epyc.name}` (quick, amd-epyc-unknown-2c-26292c) | **`{FIXTURE_ID}`" in lead(found)


def test_a_newer_run_of_the_reference_machine_takes_over_every_page_it_has(fixture_before, fixture_and_newer):
    found = effect(fixture_before, fixture_and_newer)
    assert [r.run_id for r in found.added] == [NEW_ID]
    for shown in found.pages:
        assert (shown.before.run_id, shown.after.run_id) == (FIXTURE_ID, NEW_ID), shown.experiment
    assert [c.key for c in found.statements] == [f"machines.{MACHINE} · PHP 8.2 + OpenSSL 3.0"], (
        "the same files say the same"
    )
    assert f"Runs page adds `{NEW_ID}`" in lead(found)


def test_statements_change_beyond_a_tie_and_numbers_within_their_intervals_are_counted_apart(
    tmp_path: Path, fixture_before
):
    after_root = project(tmp_path, FIXTURE_RUN)
    scale_signing(copy_run(after_root / "data" / "runs", NEW_ID), "ES512", 1 / 40)
    found = effect(fixture_before, collect(after_root))
    jwt = [c for c in found.statements if c.page == "experiments/jwt.md"]
    assert jwt, "ES512 signing 40 times faster changes what the JWT page says"
    assert all(c.kind == CHANGED for c in found.statements)
    text = lead(found)
    for change in jwt[:5]:
        assert change.label.replace("_", "\\_")[:30] in text

    nudged_root = project(tmp_path / "nudged", FIXTURE_RUN)
    # RS256: no pick and no margin the pages state rests on it (ES256's and Ed25519's fixture samples are the
    # same, so the ratio of the two has no width: any move of either is beyond it).
    scale(nudged_root / "data" / "runs" / FIXTURE_ID, "RS256", "verify", 1.004)
    nudged = effect(fixture_before, collect(nudged_root))
    within = [c for c in nudged.changes if c.kind == INTERVAL]
    assert [c.key for c in within] == ["headline.jwt.verify.RS256"], "0.4 % is within the interval"
    assert nudged.statements == ()
    assert "1 number(s) move within their 95 % intervals" in lead(nudged)
    assert "_(within both 95 % intervals)_" in lead(nudged), "listed, and marked so"


def test_a_quick_run_beside_a_full_one_changes_no_page_and_says_why(tmp_path: Path):
    before_root, after_root = project(tmp_path / "a"), project(tmp_path / "b")
    for root in (before_root, after_root):
        copy_run(root / "data" / "runs", FIXTURE_ID, started_utc="2026-01-01T00:00:00Z", profile="full")
    copy_run(after_root / "data" / "runs", NEW_ID)
    found = effect(collect(before_root), collect(after_root))
    assert not any(p.changes for p in found.pages)
    assert found.statements == ()
    text = lead(found)
    assert "**No statement on the published pages changes** (every experiment page keeps its run)." in text
    assert f"{NEW_ID} is a quick run: a quick run never replaces a full one" in text


def test_a_deleted_run_gives_its_pages_back_to_the_run_before_it(fixture_before, fixture_and_newer):
    found = effect(fixture_and_newer, fixture_before)
    assert [r.run_id for r in found.removed] == [NEW_ID]
    assert {(p.before.run_id, p.after.run_id) for p in found.pages} == {(NEW_ID, FIXTURE_ID)}
    assert f"Runs page drops `{NEW_ID}`" in lead(found)


def test_a_snapshot_round_trips_through_its_json(tmp_path: Path, fixture_before):
    fixture_before.write(tmp_path / "s.json")
    assert Snapshot.read(tmp_path / "s.json") == fixture_before
    assert {s.key for s in fixture_before.statements} >= {"claim.seed004-es256-steady", "headline.jwt.verify.ES256"}


def test_everything_the_lead_prints_from_data_is_escaped():
    hostile = RunRef("20260101T0000Z-x-php8.2", "quick", "<img src=x onerror=alert(1)>|*", "abc", 7)
    shown = PageEffect("aead", "AEAD", hostile, hostile, (), ("<b>why</b>",))
    text = lead(MergeEffect((shown,), (), (hostile,), (), ()))
    assert "<img" not in text
    assert "<b>" not in text
    assert "&lt;img src=x onerror=alert(1)&gt;&#124;\\*" in text
    assert text.startswith(LEAD_HEADING)
