"""What merging a pull request changes on the published pages (publish/statements.py, merge_effect.py):
every statement the pages make, computed on each side's own config and runs, diffed; moves within a tie
and within the intervals counted apart; a rewritten run names the files that really changed."""

from __future__ import annotations

import csv
import dataclasses
import io
import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from phpcb.presentation.headlines import SECONDS, TIMES
from phpcb.publish import merge_effect, page_text
from phpcb.publish.merge_effect import (
    CHANGED,
    INTERVAL,
    LEAD_HEADING,
    REPORTED_HEADING,
    RUNS_PAGE,
    SPREAD,
    TIE,
    Change,
    MergeEffect,
    PageEffect,
    Reported,
    RunRef,
    code_span,
    effect,
    lead,
    publishing_note,
    reported_section,
)
from phpcb.publish.page_text import SnippetChange, TextChange
from phpcb.publish.statements import PageRun, RunInfo, Snapshot, Statement, collect

from .conftest import FIXTURE_RUN, ROOT, project_with, reseal, scale_signing, write_manifest

FIXTURE_ID = FIXTURE_RUN.name
NEW_ID = "20260102T0000Z-fixture-php8.2"
MACHINE = "intel-xeon-unknown-2c-2e892e"
# A full run with every experiment, as the pages show one: issue 36's was 20261125T0812Z-intel-xeon (24 MB, each
# side's statements 2.5 s); this one (4 MB, Debian 13's stack, so a pq page too) has the same claim reproduced
# and refuted by the same slowdown, and every other page to stay unchanged.
SHOWN_RUN = ROOT / "data" / "runs" / "20261126T1932Z-amd-epyc-fb7fc6-php8.4-debian13"
SHOWN_MACHINE = "amd-epyc-zen5-2c-5330ed"


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
    before = collect(project(tmp_path / "a", SHOWN_RUN, reference=SHOWN_MACHINE))
    after_root = project(tmp_path / "b", SHOWN_RUN, reference=SHOWN_MACHINE)
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
    assert text.count("unchanged |") == len(found.pages) - 1 == 6, "every page but the JWT page's is unchanged"
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


# --- the comment, from snapshots and pages built in-process --------------------------------------------


def run_info(
    run_id: str,
    profile: str = "full",
    machine: str = MACHINE,
    experiments: dict[str, tuple[str, ...]] | None = None,
    files: dict[str, tuple[int, str]] | None = None,
    commit: str = "abc",
    schema_version: int = 2,
) -> RunInfo:
    shown = {"jwt": ("jwt.csv",)} if experiments is None else experiments
    return RunInfo(run_id, profile, machine, commit, schema_version, shown, files or {})


def said(key: str, value: str = "", **fields: Any) -> Statement:
    """A statement of the JWT page, labelled by its key."""
    return dataclasses.replace(Statement("experiments/jwt.md", key, f"label {key}", value), **fields)


def words(
    before: tuple[Statement, ...],
    after: tuple[Statement, ...],
    rows_before: dict[str, tuple[str, ...]] | None = None,
    rows_after: dict[str, tuple[str, ...]] | None = None,
) -> MergeEffect:
    """The effect of a pull request that changes only these statements (and Machines page rows)."""
    runs = {"A": run_info("A")}
    pages = (PageRun("jwt", "JWT", "A", "the newest full run"),)
    return effect(Snapshot(pages, before, runs, rows_before or {}), Snapshot(pages, after, runs, rows_after or {}))


def lines_of(text: str) -> list[str]:
    return text.splitlines()


def text_change(
    page: str,
    title: str,
    excerpt: tuple[str, ...] = ("-a", "+b"),
    *,
    added: int = 1,
    removed: int = 1,
    more: int = 0,
    status: str = page_text.CHANGED,
    renamed: int = 0,
) -> TextChange:
    """A page whose text differs, its first changed lines `excerpt`."""
    return TextChange(page, title, added, removed, excerpt, more, status, renamed)


def test_a_number_on_the_edge_of_both_intervals_moves_within_them_and_one_a_hair_beyond_changes():
    base = said("n", number=10.0, low=9.0, high=11.0, unit=TIMES)
    edge = said("n", number=11.0, low=10.0, high=12.0, unit=TIMES)
    found = words((base,), (edge,))
    assert [(c.kind, c.base, c.new) for c in found.changes] == [
        (INTERVAL, "10.00× (9.00–11.00×)", "11.00× (10.00–12.00×)")
    ], "each number is on an end of the other's interval: within both"
    assert found.statements == ()
    beyond_base = said("n", number=11.01, low=10.0, high=12.0, unit=TIMES)
    beyond_new = said("n", number=10.5, low=10.01, high=12.0, unit=TIMES)
    for after in (beyond_base, beyond_new, dataclasses.replace(edge, low=None), dataclasses.replace(edge, high=None)):
        assert [c.kind for c in words((base,), (after,)).changes] == [CHANGED], after
    assert [c.kind for c in words((dataclasses.replace(base, low=None),), (edge,)).changes] == [CHANGED]


def test_a_number_that_names_another_choice_is_a_change_even_within_its_intervals():
    base = said("n", "argon2id m=64", number=10.0, low=9.0, high=11.0, unit=TIMES)
    found = words((base,), (dataclasses.replace(base, value="argon2id m=128"),))
    assert [(c.kind, c.base, c.new) for c in found.changes] == [
        (CHANGED, "argon2id m=64: 10.00× (9.00–11.00×)", "argon2id m=128: 10.00× (9.00–11.00×)")
    ]


def test_the_same_number_with_another_interval_is_listed_and_counted_but_is_no_statement_change():
    """A page prints every number with its interval: "no statement changes" once hid an interval that did."""
    base = said("n", number=10.0, low=9.0, high=11.0, unit=TIMES)
    found = words((base,), (dataclasses.replace(base, low=8.0, high=12.0),))
    assert [(c.page, c.key, c.kind, c.base, c.new) for c in found.changes] == [
        ("experiments/jwt.md", "n", SPREAD, "10.00× (9.00–11.00×)", "10.00× (8.00–12.00×)")
    ]
    assert found.statements == ()
    text = lines_of(lead(found))
    assert text[2] == (
        "**No statement on the published pages changes** (1 number(s) keep their value with another 95 % "
        "interval; every experiment page keeps its run)."
    )
    assert (
        "- label n: 10.00× (9.00–11.00×) → **10.00× (8.00–12.00×)** _(the same number; its 95 % interval changes)_"
        in text
    )
    assert words((base,), (base,)).changes == ()
    for unrecorded in (dataclasses.replace(base, low=None), dataclasses.replace(base, high=None)):
        assert words((base,), (unrecorded,)).changes == (), "an interval a side does not record is not known to differ"
        assert words((unrecorded,), (base,)).changes == ()


def test_a_time_reads_as_a_duration_with_its_interval_and_a_missing_end_is_said_not_printed_as_zero():
    """A snapshot without an end of an interval (an older artifact's) once read "3 ms (0 ns–3.1 ms)": an
    interval no page states."""
    base = said("t", number=1500.0, low=1400.0, high=1600.0, unit=SECONDS)
    after = said("t", number=3_000_000.0, low=None, high=3_100_000.0, unit=SECONDS)
    [change] = words((base,), (after,)).changes
    assert (change.base, change.new, change.kind) == (
        "1.5 µs (1.4 µs–1.6 µs)",
        "3 ms (its interval not recorded)",
        CHANGED,
    )
    [no_high] = words((base,), (dataclasses.replace(after, low=2_900_000.0, high=None),)).changes
    assert no_high.new == "3 ms (its interval not recorded)"
    [ratio] = words((said("r", number=2.0, low=1.5, high=None),), (said("r", number=3.0, low=2.5, high=3.5),)).changes
    assert (ratio.base, ratio.new) == ("2.00× (its interval not recorded)", "3.00× (2.50–3.50×)")


def test_words_that_change_are_listed_with_their_detail_and_a_move_within_a_tie_is_marked():
    before = (
        said("pick", "ES256", options=("ES256",)),
        said("tied", "EdDSA", options=("EdDSA",)),
        said("gone", "reproduced"),
        said("same", "kept"),
    )
    after = (
        said("pick", "RS256", options=("RS256",), detail="median 1.2 µs"),
        said("tied", "EdDSA or ES256", options=("EdDSA", "ES256"), detail="not shown"),
        said("same", "kept"),
        said("fresh", "refuted", detail="run B"),
    )
    found = words(before, after)
    assert [(c.key, c.base, c.new, c.kind, c.detail) for c in found.changes] == [
        ("pick", "ES256", "RS256", CHANGED, "median 1.2 µs"),
        ("tied", "EdDSA", "EdDSA or ES256", TIE, "not shown"),
        ("gone", "reproduced", None, CHANGED, ""),
        ("fresh", None, "refuted", CHANGED, "run B"),
    ], "in the base's order, then the new ones"
    assert [c.page for c in found.changes] == ["experiments/jwt.md"] * 4
    assert {c.label for c in found.changes} == {"label pick", "label tied", "label gone", "label fresh"}
    text = lines_of(lead(found))
    assert text[2] == (
        "**3 statement(s) on the published pages change** (3 statement(s) change; 1 pick(s) move within a tie; "
        "every experiment page keeps its run)."
    )
    listed = [line for line in text if line.startswith("- label")]
    assert listed == [
        "- label pick: ES256 → **RS256** (median 1.2 µs)",
        "- label gone: reproduced → **not stated**",
        "- label fresh: not stated → **refuted** (run B)",
        "- label tied: EdDSA → **EdDSA or ES256** _(a move within a tie: options no measurement tells apart)_",
    ], "the changes first, then the move within a tie, its detail left out"


def test_a_machines_page_row_that_gains_or_loses_a_run_is_a_statement_change():
    found = words(
        (),
        (),
        rows_before={"b-row": ("r1",), "a-row": ("r1", "r2"), "kept": ("r3",)},
        rows_after={"a-row": ("r1",), "c-row": ("r4", "r5"), "kept": ("r3",)},
    )
    assert [(c.page, c.key, c.label, c.base, c.new, c.kind) for c in found.changes] == [
        ("machines.md", "machines.a-row", "Machines page, a-row", "r1, r2", "r1", CHANGED),
        ("machines.md", "machines.b-row", "Machines page, b-row", "r1", None, CHANGED),
        ("machines.md", "machines.c-row", "Machines page, c-row", None, "r4, r5", CHANGED),
    ]


def test_statements_beyond_the_limit_are_counted_and_the_changes_come_before_the_moves_within_intervals():
    within = said("n", number=10.0, low=9.0, high=11.0, unit=TIMES)
    before = (within, *(said(f"k{i}", "old") for i in range(4)))
    after = (dataclasses.replace(within, number=10.5), *(said(f"k{i}", "new") for i in range(4)))
    found = words(before, after)
    text = lines_of(lead(found, limit=3))
    listed = [line for line in text if line.startswith("- ")]
    assert listed == [
        "- label k0: old → **new**",
        "- label k1: old → **new**",
        "- label k2: old → **new**",
        "- _and 2 more (the preview&#39;s pages state them all)_",
    ]
    everything = [line for line in lines_of(lead(found, limit=5)) if line.startswith("- ")]
    assert everything[-1] == "- label n: 10.00× (9.00–11.00×) → **10.50× (9.00–11.00×)** _(within both 95 % intervals)_"
    assert len(everything) == 5


def test_a_rewritten_run_names_each_file_that_changed_with_its_rows_and_asks_for_its_published_copy_replaced():
    experiments = {"jwt": ("jwt.csv", "jwt-keys.csv"), "aead": ("aead.csv",), "kdf": ("kdf.csv",)}
    before = run_info(
        "A",
        experiments=experiments,
        files={"jwt.csv": (1200, "x"), "jwt-keys.csv": (3, "k"), "aead.csv": (7, "y"), "kdf.csv": (9, "old")},
    )
    after = run_info(
        "A",
        experiments={**experiments, "kdf": ("kdf2.csv",)},
        files={"jwt.csv": (1300, "z"), "jwt-keys.csv": (3, "k2"), "aead.csv": (7, "y"), "kdf2.csv": (5, "q")},
    )
    pages = (
        PageRun("jwt", "JWT", "A", "newest"),
        PageRun("aead", "AEAD", "A", "newest"),
        PageRun("kdf", "KDF", "A", "newest"),
    )
    found = effect(Snapshot(pages, (), {"A": before}), Snapshot(pages, (), {"A": after}))
    assert [str(f) for f in found.rewritten[0].files] == [
        "jwt.csv rewritten (1,200 → 1,300 rows)",
        "jwt-keys.csv rewritten (3 rows)",
        "kdf.csv removed (had 9 rows)",
        "kdf2.csv added (5 rows)",
    ], "the base's files in order, then the added ones"
    assert [[f.name for f in p.rewritten] for p in found.pages] == [
        ["jwt.csv", "jwt-keys.csv"],
        [],
        ["kdf.csv", "kdf2.csv"],
    ]
    assert [p.changes for p in found.pages] == [True, False, True]
    text = lines_of(lead(found))
    assert text[2] == "**No statement on the published pages changes** (2 page(s) change their run or its files)."
    assert text[6:9] == [
        "| JWT | `A` (full, intel-xeon-unknown-2c-2e892e) | `A` (full, intel-xeon-unknown-2c-2e892e), "
        "**jwt.csv rewritten (1,200 → 1,300 rows); jwt-keys.csv rewritten (3 rows)** |",
        "| AEAD | `A` (full, intel-xeon-unknown-2c-2e892e) | unchanged |",
        "| KDF | `A` (full, intel-xeon-unknown-2c-2e892e) | `A` (full, intel-xeon-unknown-2c-2e892e), "
        "**kdf.csv removed (had 9 rows); kdf2.csv added (5 rows)** |",
    ]
    assert text[-1] == (
        "Runs page: `A` rewritten (jwt.csv rewritten (1,200 → 1,300 rows); jwt-keys.csv rewritten (3 rows); "
        "kdf.csv removed (had 9 rows); kdf2.csv added (5 rows))."
    )
    assert publishing_note(found) == (
        "> [!IMPORTANT]\n> **Merging needs the published copy of 1 run(s) replaced**: `A`. `make publish` refuses "
        "a run whose published files differ; after merging, a maintainer publishes with `make publish "
        'VERSION=auto REPLACE_RUNS=A REASON="…"`, which replaces them, records why, and says so on every older '
        "version's Runs page.\n\n"
    )


def test_runs_rewritten_in_their_manifest_only_are_named_and_all_of_them_are_to_be_replaced():
    before = {"A": run_info("A"), "B": run_info("B")}
    after = {"A": run_info("A", commit="def"), "B": run_info("B", schema_version=3)}
    found = effect(Snapshot((), (), before), Snapshot((), (), after))
    assert found.pages == ()
    assert lines_of(lead(found))[-1] == (
        "Runs page: `A` rewritten (its manifest only); Runs page: `B` rewritten (its manifest only)."
    )
    note = publishing_note(found)
    assert "**Merging needs the published copy of 2 run(s) replaced**: `A`, `B`." in note
    assert "REPLACE_RUNS=A,B REASON" in note
    assert publishing_note(effect(Snapshot((), (), before), Snapshot((), (), before))) == ""


def test_the_runs_page_line_names_runs_added_and_dropped_and_says_it_does_not_change_only_when_its_text_does_not():
    before = {"A": run_info("A"), "B": run_info("B"), "E": run_info("E")}
    after = {"A": run_info("A"), "C": run_info("C"), "D": run_info("D")}
    found = effect(Snapshot((), (), before), Snapshot((), (), after))
    assert [r.run_id for r in found.added] == ["C", "D"]
    assert [r.run_id for r in found.removed] == ["B", "E"]
    assert found.rewritten == ()
    assert lines_of(lead(found))[-1] == "Runs page adds `C`, `D`; Runs page drops `B`, `E`."
    same = effect(Snapshot((), (), before), Snapshot((), (), before))
    assert lines_of(lead(same))[-1] == "The Runs page does not change."
    runs_text = dataclasses.replace(same, texts=(text_change(RUNS_PAGE, "Runs", ()),))
    assert lead(runs_text).endswith("| Runs | — | — | **+1 −1 lines** |\n\n"), "its row in the table says it changes"
    other_text = dataclasses.replace(same, texts=(text_change("about.md", "About"),))
    assert "The Runs page does not change." in lead(other_text)


def test_each_added_run_that_does_not_take_over_a_page_says_why():
    pages = (PageRun("jwt", "JWT", "A", "the newest full run"), PageRun("aead", "AEAD", None, "no run"))
    base = {"A": run_info("A")}
    added = {
        "Q": run_info("Q", profile="quick"),
        "O": run_info("O", machine="amd-epyc"),
        "S": run_info("S"),
        "N": run_info("N", experiments={"aead": ("aead.csv",)}),
        "K": run_info("K", experiments={"kdf": ("kdf.csv",)}),
    }
    after_pages = (PageRun("jwt", "JWT", "A", "the newest full run"), PageRun("aead", "AEAD", None, "no run"))
    found = effect(Snapshot(pages, (), base), Snapshot(after_pages, (), {**base, **added}))
    assert [p.experiment for p in found.pages] == ["jwt"], "a page no run has, before or after, is left out"
    assert page(found, "jwt").not_shown == (
        "Q is a quick run: a quick run never replaces a full one",
        "O is from amd-epyc; the page shows A, the newest full run",
        "S: the page shows A, the newest full run",
    )
    text = lead(found)
    assert (
        "\nWhy the added runs do not replace a page's run:\n"
        + "\n".join(
            [
                "- O is from amd-epyc; the page shows A, the newest full run",
                "- Q is a quick run: a quick run never replaces a full one",
                "- S: the page shows A, the newest full run",
            ]
        )
        + "\n"
        in text
    )
    shown_nowhere = effect(
        Snapshot(pages, (), base),
        Snapshot((PageRun("jwt", "JWT", "gone", "?"), PageRun("aead", "AEAD", "N", "newest")), (), {**base, **added}),
    )
    assert page(shown_nowhere, "jwt").not_shown == tuple(f"{r}: no page shows it" for r in ("Q", "O", "S"))
    assert page(shown_nowhere, "aead").not_shown == ()
    assert page(shown_nowhere, "aead").page == "experiments/aead.md"
    assert page(shown_nowhere, "aead").before is None
    assert "| AEAD | no run | **`N` (full, intel-xeon-unknown-2c-2e892e)** |" in lead(shown_nowhere)
    assert "| JWT | `A` (full, intel-xeon-unknown-2c-2e892e) | **no run** |" in lead(shown_nowhere)


def test_a_quick_run_is_compared_with_the_page_run_s_profile_not_its_own():
    pages = (PageRun("jwt", "JWT", "A", "the newest run"),)
    quick = {"A": run_info("A", profile="quick"), "Q": run_info("Q", profile="quick")}
    found = effect(Snapshot(pages, (), {"A": quick["A"]}), Snapshot(pages, (), quick))
    assert page(found, "jwt").not_shown == ("Q: the page shows A, the newest run",)
    full = effect(
        Snapshot(pages, (), {"A": run_info("A")}), Snapshot(pages, (), {"A": run_info("A"), "F": run_info("F")})
    )
    assert page(full, "jwt").not_shown == ("F: the page shows A, the newest run",), "a full run beside a full one"


def test_confounders_are_named_when_the_page_changes_what_it_says_and_only_what_differs():
    old = RunRef("A", "quick", "m1", "c1", 1)
    new = RunRef("B", "full", "m2", "c2", 2)
    moved = PageEffect("jwt", "JWT", old, new, (), ())
    assert moved.confounders == (
        "profile quick → full",
        "machine m1 → m2",
        "runner commit c1 → c2",
        "schema version 1 → 2",
    )
    assert PageEffect(
        "jwt", "JWT", old, dataclasses.replace(new, profile="quick", commit="c1"), (), ()
    ).confounders == ("machine m1 → m2", "schema version 1 → 2")
    assert PageEffect("jwt", "JWT", old, dataclasses.replace(old, machine="m2"), (), ()).confounders == ()
    assert PageEffect("jwt", "JWT", None, new, (), ()).confounders == ()
    assert PageEffect("jwt", "JWT", old, None, (), ()).confounders == ()
    change = Change("experiments/jwt.md", "k", "K", "a", "b", CHANGED)
    heading = "**Confounders, not findings**"
    stated = lead(MergeEffect((moved,), (change,), (), (), ()))
    assert (
        f"- K: a → **b**\n\n{heading}: the two runs of these pages differ in more than speed, so a changed "
        "statement may come from that:\n"
        "- JWT: profile quick → full; machine m1 → m2; runner commit c1 → c2; schema version 1 → 2\n"
    ) in stated
    assert heading not in lead(MergeEffect((moved,), (dataclasses.replace(change, kind=TIE),), (), (), ()))
    texts = (text_change("experiments/jwt.md", "JWT"),)
    assert heading in lead(MergeEffect((moved,), (), (), (), (), texts))
    assert heading not in lead(MergeEffect((moved,), (), (), (), (), ()))


def test_a_page_whose_run_changes_is_bold_and_counted_and_one_that_keeps_it_is_unchanged():
    ref = RunRef("A", "full", "m1", "c1", 1)
    kept = PageEffect("aead", "AEAD", ref, ref, (), ())
    moved = PageEffect("jwt", "JWT", ref, dataclasses.replace(ref, run_id="B"), (), ())
    text = lines_of(lead(MergeEffect((kept, moved), (), (), (), ())))
    assert text[2] == "**No statement on the published pages changes** (1 page(s) change their run or its files)."
    assert text[6:8] == ["| AEAD | `A` (full, m1) | unchanged |", "| JWT | `A` (full, m1) | **`B` (full, m1)** |"]


def test_the_headline_names_every_page_whose_text_differs_and_says_no_change_only_when_none_does():
    ref = RunRef("A", "full", "m1", "c1", 1)
    jwt = PageEffect("jwt", "JWT", ref, ref, (), (), "experiments/jwt.md")
    mine = (text_change("index.md", "Home"), text_change("experiments/jwt.md", "JWT"))
    theirs = MergeEffect((), (), (), (), (), (text_change("about.md", "About"), text_change("index.md", "Home")))
    nothing = MergeEffect((), (), (), (), (), ())
    changed = MergeEffect((jwt,), (), (), (), (), mine)
    unchanged = MergeEffect((jwt,), (), (), (), (), ())

    def headline(found: MergeEffect, reported: Reported | None = None) -> str:
        return lines_of(lead(found, reported=reported))[2]

    counts = "every experiment page keeps its run"
    assert headline(changed) == f"**2 page(s) change what they say**: Home, JWT ({counts})."
    assert headline(changed, Reported(None, ("a.py",))) == f"**2 page(s) change what they say**: Home, JWT ({counts})."
    assert headline(changed, Reported(theirs, ("a.py",))) == (
        f"**3 page(s) change what they say**: Home, JWT, About ({counts}; 2 as this job built the pull "
        "request&#39;s files, 2 as the pull request&#39;s own job reports its code changes them)."
    )
    assert headline(unchanged, Reported(theirs, ("a.py",))) == (
        f"**2 page(s) change what they say**: About, Home ({counts}; as the pull request&#39;s own job reports "
        "its code changes them: this job&#39;s build of the pull request&#39;s other files changes none)."
    )
    assert headline(unchanged, Reported(None, ("a.py",))) == (
        "**What the pull request&#39;s code changes on the pages is not known here**: this job built its other "
        f"files, which change no page ({counts}); see the section below."
    )
    assert headline(unchanged, Reported(nothing, ("a.py",))) == (
        f"**No page of the published site changes** as this job built the pull request&#39;s files ({counts}); "
        "the pull request&#39;s own job reports that its code changes none either (not verified here)."
    )
    assert headline(unchanged) == f"**No page of the published site changes** ({counts})."
    assert headline(unchanged, Reported(unchanged, ())) != headline(unchanged)


def test_the_table_gives_each_page_its_text_and_lists_the_other_pages_whose_text_differs():
    ref = RunRef("A", "full", "m1", "c1", 1)
    jwt = PageEffect("jwt", "JWT", ref, ref, (), (), "experiments/jwt.md")
    aead = PageEffect("aead", "AEAD", ref, ref, (), (), "experiments/aead.md")
    texts = (
        text_change("index.md", "Home", added=3, removed=2),
        text_change("experiments/jwt.md", "JWT", status=page_text.ADDED),
        text_change("about.md", "About", status=page_text.REMOVED, added=0, removed=4),
    )
    found = MergeEffect((jwt, aead), (), (), (), (), texts)
    table = [line for line in lines_of(lead(found)) if line.startswith("|")]
    assert table == [
        "| Page | Shows now | After merging | Its text |",
        "| --- | --- | --- | --- |",
        "| JWT | `A` (full, m1) | unchanged | **new page (+1 −1 lines)** |",
        "| AEAD | `A` (full, m1) | unchanged | unchanged |",
        "| Home | — | — | **+3 −2 lines** |",
        "| About | — | — | **page removed (+0 −4 lines)** |",
    ]
    own = [line for line in lines_of(lead(found, reported=Reported(None, ()))) if line.startswith("|")]
    assert own[0] == "| Page | Shows now | After merging | Its text, as this job built it |"
    assert own[1:] == table[1:]


def test_the_changed_lines_of_each_page_are_quoted_up_to_a_budget_and_the_rest_are_named():
    texts = (
        text_change("index.md", "Home", ("-" + "a" * 30, "+" + "b" * 30), more=2),
        text_change("experiments/jwt.md", "JWT", (), renamed=3),
        text_change("experiments/aead.md", "AEAD", ("-c", "+d"), renamed=1),
        text_change("experiments/kdf.md", "KDF", ("-e" * 20,)),
        text_change("about.md", "About", ()),
        text_change("faq.md", "FAQ <b>", ("-f",)),
    )
    found = MergeEffect((), (), (), (), (), texts)
    home, aead = 75, 17  # the characters of their quoted blocks
    assert merge_effect._quoted_lines(found, budget=home + aead) == [
        "",
        "<details><summary>The changed lines of each page (outside its snippets)</summary>",
        "",
        "Home (+1 −1 lines):",
        "",
        "```diff\n-" + "a" * 30 + "\n+" + "b" * 30 + "\n```",
        "",
        "_and 2 more changed line(s) on this page._",
        "",
        "JWT (+1 −1 lines):",
        "",
        "_3 changed line(s) differ only in the run they name._",
        "",
        "AEAD (+1 −1 lines):",
        "",
        "```diff\n-c\n+d\n```",
        "",
        "_1 changed line(s) differ only in the run they name._",
        "",
        "_And the lines of KDF, FAQ &lt;b&gt;: see the preview._",
        "",
        "</details>",
    ], "About has no line to quote; KDF's block is beyond the budget, and so is every page after it"
    assert "_And the lines of AEAD, KDF, FAQ &lt;b&gt;: see the preview._" in merge_effect._quoted_lines(
        found, budget=home + aead - 1
    )
    first = merge_effect._quoted_lines(found, budget=1)
    assert first[3] == "Home (+1 −1 lines):", "the first page is quoted whatever its length"
    assert first[-3:] == ["_And the lines of JWT, AEAD, KDF, FAQ &lt;b&gt;: see the preview._", "", "</details>"]
    text = lead(found)
    assert "KDF (+1 −1 lines):\n\n```diff\n" + "-e" * 20 + "\n```\n\nFAQ &lt;b&gt; (+1 −1 lines):" in text
    assert "About (" not in text
    assert "<details>" not in lead(MergeEffect((), (), (), (), (), (text_change("a.md", "A", ()),)))


def test_both_builds_pages_are_diffed_home_first_then_the_experiments_in_their_order_then_the_rest():
    snippet = 'The recipe, runners/snippets/hmac.php"\n```php\n<?php echo {};\n```\n'
    before_pages = {
        "about.md": "# About\nold\n",
        "experiments/jwt.md": "# JWT\nA\n" + snippet.format(1),
        "experiments/aead.md": "# AEAD\nsame\n",
        "index.md": "# Home\nold line\n",
        "runs.md": "# Runs\nkept\n",
    }
    after_pages = {
        **before_pages,
        "about.md": "# About\nnew\n",
        "experiments/jwt.md": "# JWT\nB\n" + snippet.format(2),
        "experiments/aead.md": "# AEAD\nsame, changed\n",
        "index.md": "# Home\nnew line\n",
    }
    pages = (
        PageRun("jwt", "JSON Web Tokens", "A", "newest"),
        PageRun("aead", "AEAD (GCM vs CCM)", "A", "newest", "experiments/aead.md"),
    )
    side = Snapshot(pages, (), {"A": run_info("A", experiments={"jwt": ("jwt.csv",), "aead": ("aead.csv",)})})
    found = effect(side, side, before_pages, after_pages)
    assert [(t.page, t.title) for t in found.texts or ()] == [
        ("index.md", "Home"),
        ("experiments/jwt.md", "JSON Web Tokens"),
        ("experiments/aead.md", "AEAD (GCM vs CCM)"),
        ("about.md", "About"),
    ]
    assert found.snippets == (
        SnippetChange(
            "hmac.php",
            ("JSON Web Tokens",),
            (
                "--- runners/snippets/hmac.php (base)",
                "+++ runners/snippets/hmac.php (merged)",
                "@@ -1 +1 @@",
                "-<?php echo 1;",
                "+<?php echo 2;",
            ),
            0,
        ),
    )
    text = lines_of(lead(found))
    assert text[2] == (
        "**4 page(s) change what they say**: Home, JSON Web Tokens, AEAD (GCM vs CCM), About "
        "(every experiment page keeps its run)."
    )
    assert "| JSON Web Tokens | `A` (full, intel-xeon-unknown-2c-2e892e) | unchanged | **+2 −2 lines** |" in text
    assert lines_of(lead(effect(side, side, before_pages, before_pages)))[2] == (
        "**No page of the published site changes** (every experiment page keeps its run)."
    )
    assert effect(side, side, before_pages).texts is None, "one side's pages alone are not compared"
    assert effect(side, side, None, after_pages).texts is None


def test_each_copyable_snippet_that_changes_is_shown_as_a_diff_with_the_pages_that_include_it():
    snippets = (
        SnippetChange("hmac.php", ("JWT", "Home_page"), ("-a", "+b"), 0),
        SnippetChange("x`y.php", ("AEAD",), ("-c",), 7),
    )
    found = MergeEffect((), (), (), (), (), (), snippets)
    text = lead(found)
    assert (
        "\n\n**Copyable code that changes**, as the pages include it (readers copy these lines):\n\n"
        "`runners/snippets/hmac.php` on JWT, Home_page:\n\n```diff\n-a\n+b\n```\n\n"
        "``runners/snippets/x`y.php`` on AEAD:\n\n```diff\n-c\n```\n\n"
        "_and 7 more line(s) of its diff: see the preview._\n\n"
    ) in text
    assert "Copyable code" not in lead(MergeEffect((), (), (), (), (), ()))


def test_a_code_span_shows_any_backticks_of_its_text_on_one_line():
    assert code_span("a.py") == "`a.py`"
    assert code_span("a``b.py") == "```a``b.py```"
    assert code_span("`a.py") == "`` `a.py ``"
    assert code_span("a.py`") == "`` a.py` ``"
    assert code_span("a\n  b\tc") == "`a b c`"


def test_the_pull_requests_own_report_of_its_code_is_shown_as_its_word():
    code = tuple(f"scripts/phpcb/f{i}.py" for i in range(7))
    texts = (text_change("index.md", "Home", added=2), text_change("experiments/jwt.md", "JWT <i>", ("-x",), more=4))
    change = Change("experiments/jwt.md", "k", "claim", "reproduced", "refuted", CHANGED)
    snippets = (SnippetChange("hmac.php", ("JWT <i>",), ("-a",), 0),)
    reported = Reported(MergeEffect((), (change,), (), (), (), texts, snippets), code, ("note <one>", "two"))
    section = lines_of(reported_section(reported))
    assert section[:2] == [REPORTED_HEADING, ""]
    assert section[2] == (
        "This pull request changes 7 file(s) this job does not build from (`scripts/phpcb/f0.py`, "
        "`scripts/phpcb/f1.py`, `scripts/phpcb/f2.py`, `scripts/phpcb/f3.py`, `scripts/phpcb/f4.py` and 2 more): "
        "the build&#39;s code, templates or configuration. This job never runs them. What follows is the pull "
        "request&#39;s own preview job&#39;s word: the merged tree&#39;s pages and statements as its code built "
        "them, diffed against this job&#39;s build of the same files with the default branch&#39;s code. "
        "Not verified here."
    )
    assert section[3:11] == [
        "",
        "&gt; note &lt;one&gt;",
        "&gt; two",
        "",
        "**2 page(s) change by its code**, as its job reports: Home, JWT &lt;i&gt;.",
        "",
        "| Page | Its text |",
        "| --- | --- |",
    ]
    assert section[11:15] == [
        "| Home | **+2 −1 lines** |",
        "| JWT &lt;i&gt; | **+1 −1 lines** |",
        "",
        "- claim: reproduced → **refuted**",
    ]
    assert "`runners/snippets/hmac.php` on JWT &lt;i&gt;:" in section
    assert "_and 4 more changed line(s) on this page._" in section
    assert section[-1] == "</details>"
    five = lines_of(reported_section(dataclasses.replace(reported, code=code[:5], notes=())))
    assert five[2].startswith("This pull request changes 5 file(s) this job does not build from (")
    assert "`scripts/phpcb/f4.py`): the build" in five[2]
    assert five[3:5] == ["", "**2 page(s) change by its code**, as its job reports: Home, JWT &lt;i&gt;."]
    many = Reported(MergeEffect((), (change,) * 4, (), (), (), texts), code)
    limited = lines_of(reported_section(many, limit=2))
    assert limited.count("- claim: reproduced → **refuted**") == 2
    assert "- _and 2 more (the preview&#39;s pages state them all)_" in limited


def test_the_pull_requests_own_report_says_when_it_is_not_known_or_changes_no_page():
    unknown = reported_section(Reported(None, ("a.py",)))
    assert unknown.endswith(
        "\n\n**Not known**: the preview artifact carries no pages of the merged tree, so what the code changes on "
        "the pages is not known here. See the preview site, which its code built.\n"
    )
    assert "This pull request changes 1 file(s) this job does not build from (`a.py`): the build" in unknown
    none = reported_section(Reported(MergeEffect((), (), (), (), (), ()), ("a.py",), ("why",)))
    assert none.endswith("\n\n&gt; why\n\nThe pull request's job reports that its code changes no page's text.\n")
    assert "page(s) change by its code" not in none


def test_a_statement_is_named_as_the_merged_tree_states_it():
    number = said("n", number=10.0, low=9.0, high=11.0, unit=TIMES)
    before = (
        dataclasses.replace(number, label="old question", page="old.md"),
        dataclasses.replace(said("w", "a"), label="old words"),
    )
    after = (
        dataclasses.replace(number, number=20.0, label="new question", page="new.md"),
        dataclasses.replace(said("w", "b"), label="new words", page="new.md"),
    )
    found = words(before, after)
    assert [(c.page, c.label) for c in found.changes] == [("new.md", "new question"), ("new.md", "new words")]
    gone = words(before, ())
    assert [(c.page, c.label, c.new) for c in gone.changes] == [
        ("old.md", "old question", None),
        ("experiments/jwt.md", "old words", None),
    ]


def test_a_number_that_one_side_states_without_its_number_is_compared_as_words():
    number = said("n", "argon2id", number=10.0, low=9.0, high=11.0, unit=TIMES)
    found = words((number,), (said("n", "bcrypt"),))
    assert [(c.base, c.new, c.kind) for c in found.changes] == [("argon2id: 10.00× (9.00–11.00×)", "bcrypt", CHANGED)]
    back = words((said("n", "bcrypt"),), (number,))
    assert [(c.base, c.new, c.kind) for c in back.changes] == [("bcrypt", "argon2id: 10.00× (9.00–11.00×)", CHANGED)]
    assert words((number,), (said("n", "argon2id"),)).changes == (), "the same words"


def test_the_headline_counts_the_numbers_that_move_within_their_intervals():
    number = said("n", number=10.0, low=9.0, high=11.0, unit=TIMES)
    other = said("m", number=5.0, low=4.0, high=6.0, unit=TIMES)
    found = words((number, other), (dataclasses.replace(number, number=10.5), dataclasses.replace(other, number=5.5)))
    assert lines_of(lead(found))[2] == (
        "**No statement on the published pages changes** (2 number(s) move within their 95 % intervals; "
        "every experiment page keeps its run)."
    )


def test_the_lead_says_who_computed_it_and_each_reason_once():
    ref = RunRef("A", "full", "m1", "c1", 1)
    pages = (
        PageEffect("jwt", "JWT", ref, ref, (), ("Q is a quick run", "B: the page shows A")),
        PageEffect("aead", "AEAD", ref, ref, (), ("Q is a quick run",)),
    )
    text = lines_of(lead(MergeEffect(pages, (), (), (), ()), by="computed by the <base> job"))
    assert text[:5] == [
        LEAD_HEADING,
        "",
        "_computed by the &lt;base&gt; job_",
        "",
        "**No statement on the published pages changes** (every experiment page keeps its run).",
    ]
    at = text.index("Why the added runs do not replace a page's run:")
    assert text[at + 1 : at + 4] == ["- B: the page shows A", "- Q is a quick run", ""]
    assert "_" not in lines_of(lead(MergeEffect(pages, (), (), (), ())))[2], "no one named, no line"


def test_a_page_that_moves_to_another_run_names_how_the_two_runs_differ():
    pages = (PageRun("jwt", "JWT", "A", "newest"),)
    moved = (PageRun("jwt", "JWT", "B", "newest"),)
    old = run_info("A", profile="quick", commit="c1", schema_version=1)
    new = run_info("B", machine="amd-epyc", commit="c2", schema_version=2)
    claim = said("claim", "reproduced")
    found = effect(
        Snapshot(pages, (claim,), {"A": old}),
        Snapshot(moved, (dataclasses.replace(claim, value="refuted"),), {"A": old, "B": new}),
    )
    jwt = page(found, "jwt")
    assert jwt.before == RunRef("A", "quick", MACHINE, "c1", 1)
    assert jwt.after == RunRef("B", "full", "amd-epyc", "c2", 2)
    assert jwt.rewritten == ()
    assert (
        f"- JWT: profile quick → full; machine {MACHINE} → amd-epyc; runner commit c1 → c2; schema version 1 → 2"
        in (lead(found))
    )


def test_a_page_that_moves_to_a_rewritten_run_moves_and_names_no_rewritten_file():
    pages = (PageRun("jwt", "JWT", "A", "newest"),)
    before = {"A": run_info("A"), "B": run_info("B", files={"jwt.csv": (5, "x")})}
    after = {"A": run_info("A"), "B": run_info("B", files={"jwt.csv": (6, "y")})}
    found = effect(Snapshot(pages, (), before), Snapshot((PageRun("jwt", "JWT", "B", "newest"),), (), after))
    assert [str(f) for f in found.rewritten[0].files] == ["jwt.csv rewritten (5 → 6 rows)"]
    assert page(found, "jwt").rewritten == ()
    assert "| JWT | `A` (full, intel-xeon-unknown-2c-2e892e) | **`B` (full, intel-xeon-unknown-2c-2e892e)** |" in (
        lead(found)
    )


def test_a_page_new_in_the_merged_tree_shows_its_run_and_a_page_it_drops_is_not_listed():
    runs = {"A": run_info("A", experiments={"jwt": ("jwt.csv",), "kdf": ("kdf.csv",)})}
    before = Snapshot((PageRun("jwt", "JWT", "A", "newest"),), (), runs)
    after = Snapshot((PageRun("kdf", "KDF", "A", "newest"),), (), runs)
    found = effect(before, after)
    assert [(p.experiment, p.before, p.after and p.after.run_id) for p in found.pages] == [("kdf", None, "A")]


def test_a_page_is_named_by_the_merged_tree_s_title_and_a_dropped_page_by_the_base_s():
    runs = {"A": run_info("A")}
    before = Snapshot((PageRun("jwt", "JWT", "A", "r"), PageRun("kdf", "Old KDF", "A", "r")), (), runs)
    after = Snapshot((PageRun("jwt", "JSON Web Tokens", "A", "r"),), (), runs)
    pages = {"experiments/jwt.md": "# x\na\n", "experiments/kdf.md": "# y\nb\n"}
    found = effect(before, after, pages, {"experiments/jwt.md": "# x\nc\n"})
    assert [(t.page, t.title, t.status) for t in found.texts or ()] == [
        ("experiments/jwt.md", "JSON Web Tokens", page_text.CHANGED),
        ("experiments/kdf.md", "Old KDF", page_text.REMOVED),
    ]


def test_an_order_that_moves_only_within_its_ties_is_a_move_within_a_tie_and_one_that_swaps_two_is_a_change():
    base = said("order", "a < b ≈ c", order=(("a",), ("b", "c")))
    within = said("order", "a ≈ b < c", order=(("a", "b"), ("c",)))
    swapped = said("order", "b < a < c", order=(("b",), ("a",), ("c",)))
    assert [c.kind for c in words((base,), (within,)).changes] == [TIE]
    assert [c.kind for c in words((base,), (swapped,)).changes] == [CHANGED]


def test_the_whole_lead_of_a_pull_request_that_adds_a_run_no_page_shows():
    ref = RunRef("A", "full", "m1", "c1", 1)
    page_effect = PageEffect("jwt", "JWT", ref, ref, (), ("Q is a quick run",), "experiments/jwt.md")
    change = Change("experiments/jwt.md", "k", "claim x", "reproduced", "refuted", CHANGED)
    found = MergeEffect((page_effect,), (change,), (dataclasses.replace(ref, run_id="Q"),), (), ())
    assert lead(found) == "\n".join(
        [
            LEAD_HEADING,
            "",
            "**1 statement(s) on the published pages change** (1 statement(s) change; every experiment page keeps "
            "its run).",
            "",
            "| Page | Shows now | After merging |",
            "| --- | --- | --- |",
            "| JWT | `A` (full, m1) | unchanged |",
            "",
            "- claim x: reproduced → **refuted**",
            "",
            "Why the added runs do not replace a page's run:",
            "- Q is a quick run",
            "",
            "Runs page adds `Q`.",
            "",
        ]
    )
    texts = (text_change("experiments/jwt.md", "JWT", ()),)
    assert lead(dataclasses.replace(found, changes=(), added=(), texts=texts)) == "\n".join(
        [
            LEAD_HEADING,
            "",
            "**1 page(s) change what they say**: JWT (every experiment page keeps its run).",
            "",
            "| Page | Shows now | After merging | Its text |",
            "| --- | --- | --- | --- |",
            "| JWT | `A` (full, m1) | unchanged | **+1 −1 lines** |",
            "",
            "",
            "Why the added runs do not replace a page's run:",
            "- Q is a quick run",
            "",
            "The Runs page does not change.",
            "",
        ]
    )
