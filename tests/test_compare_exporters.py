"""`compare`'s reports: the Markdown comment (pinned as a snapshot), its size limit and escaping, the
JSON export, the site page, and the command line end to end.

tests/snapshots/compare/*.md are the fixture run compared with a modified copy of itself; rewrite them
with UPDATE_SNAPSHOTS=1 and review the diff.
"""

import copy
import dataclasses
import json
import re
from dataclasses import replace

import pytest

from phpcb.commands.main import main
from phpcb.compare import comparison
from phpcb.compare.comparison import Verdict
from phpcb.compare.exporters import FORMATS, exporter, markdown
from phpcb.compare.exporters.json_export import FORMAT_VERSION
from phpcb.compare.exporters.markdown import LIMIT, MarkdownExporter
from phpcb.data.loader import Run, load_run
from phpcb.data.schema import load_schemas
from phpcb.experiments import registry
from phpcb.pages import compare_page
from phpcb.presentation import render
from phpcb.presentation.advice import AdviceChange

from .conftest import FIXTURE_RUN, ROOT, SNAPSHOTS, assert_snapshot, on_another_machine, reseal, write_manifest

SCHEMAS = load_schemas(ROOT / "data" / "schema")
EXPERIMENTS = {e.name: e for e in registry.discover()}
NEW_ID = "20260102T0000Z-fixture-php8.2"
HOSTILE = "x|<script>alert(1)</script>&*_[y]"
ADVICE = [
    AdviceChange(
        "aead", "aead.fastest.16384", "Fastest recommended AEAD at 16 KiB", "chacha20-poly1305", "aes-128-gcm"
    ),
    AdviceChange("jwt", "jwt.fastest-signer", "Fastest signer", None, "Ed448"),
    AdviceChange(
        "aead",
        "aead.fastest.1024",
        "Fastest recommended AEAD at 1 KiB",
        "aes-128-gcm or aes-256-gcm (no measurable difference)",
        "aes-256-gcm",
        tie=True,
    ),
]


def scaled(rows, column, factor, where):
    return [{**row, column: round(row[column] * factor)} if where(row) else row for row in rows]


def modified_copy(base: Run, **manifest_changes) -> Run:
    """The fixture run with known changes: AES-128-GCM twice as fast, Blowfish-CBC 30 % and HS256 50 %
    slower, a curve gone, a JWS algorithm added, an Argon2 cell cut to three samples; another kernel
    and extension."""
    tables = {name: [dict(row) for row in base.tables[name]] for name in base.frames}
    tables["aead.csv"] = scaled(tables["aead.csv"], "elapsed_ns", 0.5, lambda r: r["algorithm"] == "aes-128-gcm")
    tables["symmetric.csv"] = scaled(tables["symmetric.csv"], "elapsed_ns", 1.3, lambda r: r["cipher"] == "bf-cbc")
    tables["ec_keygen.csv"] = [r for r in tables["ec_keygen.csv"] if r["curve"] != "brainpoolP160r1"]
    tables["jwt.csv"] = scaled(tables["jwt.csv"], "elapsed_ns", 1.5, lambda r: r["alg"] == "HS256")
    tables["jwt.csv"] += [{**r, "alg": "Ed448"} for r in tables["jwt.csv"] if r["alg"] == "EdDSA"]
    cut = ("cli", "argon2d", 16384, 1, 1)
    tables["argon2.csv"] = [
        r
        for r in tables["argon2.csv"]
        if (r["interface"], r["variant"], r["memory_kib"], r["threads"], r["time_cost"]) != cut or r["sample"] < 3
    ]
    manifest = copy.deepcopy(base.manifest)
    manifest["run_id"] = NEW_ID
    manifest["kernel"] = "Linux 6.19.1"
    manifest["php"]["extensions"]["gmp"] = "8.2.36"
    for path, value in manifest_changes.items():
        section, field = path.split("__")
        manifest[section][field] = value
    # Written by the same runner as the base: the in-memory copy keeps the base's schema version on disk.
    return dataclasses.replace(Run.from_rows(NEW_ID, manifest, tables), source_version=base.source_version)


@pytest.fixture(scope="module")
def base_run():
    return load_run(FIXTURE_RUN, SCHEMAS)


@pytest.fixture(scope="module")
def fixture_comparison(base_run):
    return comparison.compare(base_run, modified_copy(base_run), SCHEMAS, advice_changes=ADVICE)


def test_the_modified_copy_gives_every_kind_of_verdict(fixture_comparison):
    counts = fixture_comparison.counts()
    for verdict in (Verdict.FASTER, Verdict.SLOWER, Verdict.SAME, Verdict.NEW, Verdict.MISSING, Verdict.TOO_FEW):
        assert counts[verdict] > 0, verdict


def test_the_markdown_comment_matches_its_snapshot(fixture_comparison):
    assert_snapshot(SNAPSHOTS / "compare" / "fixture.md", exporter("markdown").serialize(fixture_comparison))


def test_the_site_page_matches_its_snapshot(base_run):
    small = comparison.compare(
        base_run,
        modified_copy(base_run),
        SCHEMAS,
        [EXPERIMENTS["jwt"], EXPERIMENTS["argon2"]],
        advice_changes=ADVICE,
    )
    page = compare_page.render_page([small], render.environment(ROOT / "templates"))
    assert_snapshot(SNAPSHOTS / "compare" / "page.md", page)


def test_the_comment_is_in_order_environment_advice_summary_largest_full_tables(fixture_comparison):
    text = exporter("markdown").serialize(fixture_comparison)
    headings = [line for line in text.splitlines() if line.startswith("#")]
    assert headings == [
        f"## Benchmark comparison: {FIXTURE_RUN.name} → {NEW_ID}",
        "### Environment",
        "### What this run would change in the advice if it were the reference",
        "### Summary",
        "### Largest significant changes",
        "### All cases",
    ]
    assert "- Fastest recommended AEAD at 16 KiB: chacha20-poly1305 → aes-128-gcm" in text
    assert "- Fastest signer: not stated (no results for it in this run) → Ed448" in text
    kernel = json.loads((FIXTURE_RUN / "manifest.json").read_text(encoding="utf-8"))["kernel"]
    assert f"| **Kernel** | {kernel} | Linux 6.19.1 |" in text
    assert "| **PHP extension gmp** | not loaded | 8.2.36 |" in text
    assert "| CPU model | Intel(R) Xeon(R) Processor | Intel(R) Xeon(R) Processor |" in text
    assert "| OS |" not in text, "rows that do not differ are left out"
    assert re.search(r"\*\*\d+ faster · \d+ slower · [\d,]+ ~ · 9 new · 4 missing · 1 too few samples\*\*", text)


def test_without_advice_changes_the_comment_says_so(base_run):
    result = comparison.compare(base_run, base_run, SCHEMAS, [EXPERIMENTS["jwt"]])
    text = exporter("markdown").serialize(result)
    heading = "### What this run would change in the advice if it were the reference"
    assert f"{heading}\n\nNo recommendation, finding or verdict changes.\n" in text
    assert "No significant change." in text
    assert "left out" not in text, "a small comparison is not cut"
    assert text.count("<details><summary>The machine's shift") == 1
    assert text.count("<details>") == 2, "the class-by-class shift, and the one experiment's table"


def table_rows(text):
    return [line for line in text.splitlines() if line.startswith("| ") and " | verdict |" not in line]


def details_rows(text):
    rows = 0
    for block in re.findall(r"<details>.*?</details>", text, flags=re.DOTALL):
        if block.startswith("<details><summary>The machine's shift"):
            continue
        rows += len([line for line in block.splitlines() if line.startswith("| ")]) - 2
    return rows


@pytest.mark.parametrize("limit", [LIMIT, 20_000, 5_000])
def test_the_comment_stays_under_the_limit_and_says_how_many_rows_it_left_out(fixture_comparison, limit):
    text = MarkdownExporter(limit).serialize(fixture_comparison)
    assert len(text) <= limit
    total = len(fixture_comparison.cases)
    match = re.search(r"_([\d,]+) of ([\d,]+) rows of the full tables were left out", text)
    assert match, "the fixture comparison does not fit: the note says so"
    left_out = int(match.group(1).replace(",", ""))
    assert int(match.group(2).replace(",", "")) == total
    assert left_out + details_rows(text) == total
    assert "the JSON export (`--format json`) has every case" in text
    for experiment in fixture_comparison.experiments:
        tally = f"{experiment.title}: {len(experiment.cases):,} cases: "
        assert tally in text, f"every experiment keeps its tally, {experiment.title}'s too"


def test_a_cut_table_keeps_its_most_telling_rows_in_table_order(fixture_comparison):
    """At 20,000 characters each experiment keeps a share of rows: the faster and slower ones first."""
    text = MarkdownExporter(20_000).serialize(fixture_comparison)
    shares = dict(re.findall(r"<details><summary>([^<:]+): [^<]*\(the ([\d,]+) most telling of [\d,]+ rows\)", text))
    assert shares, "the tables are cut"
    for view in markdown.page_view(fixture_comparison).experiments:
        if view.title in shares:
            kept = sorted(view.importance[: int(shares[view.title].replace(",", ""))])
            block = text.split(f"<details><summary>{view.title}:", 1)[1].split("</details>", 1)[0]
            shown = [line for line in block.splitlines() if line.startswith("| ")][2:]
            assert shown == [view.table.row_line(i) for i in kept], view.title
    for experiment in fixture_comparison.experiments:
        view = markdown.importance(experiment)
        significant = [i for i in view if experiment.cases[i].verdict in (Verdict.FASTER, Verdict.SLOWER)]
        assert list(view[: len(significant)]) == significant, "faster and slower cases rank first"
        assert sorted(view) == list(range(len(experiment.cases)))


def test_the_uncut_comment_would_be_longer_than_the_limit(fixture_comparison):
    assert len(MarkdownExporter(10**9).serialize(fixture_comparison)) > LIMIT


def hostile_comparison(elsewhere: bool = False, **changes):
    base, new = load_run(FIXTURE_RUN, SCHEMAS), None
    tables = {name: [dict(row) for row in base.tables[name]] for name in base.frames}
    rows = [{**r, "alg": HOSTILE} for r in tables["jwt.csv"] if r["alg"] == "HS256"]
    base_manifest = copy.deepcopy(base.manifest)
    base = Run.from_rows(base.run_id, base_manifest, {**tables, "jwt.csv": tables["jwt.csv"] + rows})
    manifest = copy.deepcopy(base_manifest)
    manifest["run_id"] = NEW_ID
    manifest["os"] = "<img src=x onerror=alert(2)>"
    for path, value in changes.items():
        section, field = path.split("__")
        manifest[section][field] = value
    if elsewhere:
        on_another_machine(manifest)
    slower = [{**r, "elapsed_ns": r["elapsed_ns"] * 2} for r in rows]
    new = Run.from_rows(NEW_ID, manifest, {**tables, "jwt.csv": tables["jwt.csv"] + slower})
    advice = [AdviceChange("jwt", "jwt.x", f"Pick {HOSTILE}", HOSTILE, "<b>bold</b>")]
    return comparison.compare(base, new, SCHEMAS, [EXPERIMENTS["jwt"]], advice_changes=advice)


def test_hostile_values_are_escaped_in_the_comment_and_the_page():
    result = hostile_comparison(cpu__model="<script>cpu</script> | AMD @everyone")
    text = exporter("markdown").serialize(result)
    page = compare_page.render_page([result], render.environment(ROOT / "templates"))
    for output in (text, page):
        assert "<script" not in output
        assert "<img" not in output
        assert "<b>" not in output
        assert "x&#124;&lt;script&gt;alert(1)&lt;/script&gt;&amp;\\*\\_\\[y\\]" in output
        assert "&lt;script&gt;cpu&lt;/script&gt; &#124; AMD \\@everyone" in output, "no mention from data"
        header_pipes = None
        for line in output.splitlines():
            if line.strip().startswith("| ") and "alg" in line:
                header_pipes = line.count("|")
            elif line.strip().startswith("| ") and "x&#124;" in line and header_pipes:
                assert line.count("|") == header_pipes, "a value from data never adds a table column"
    data = json.loads(exporter("json").serialize(result))
    (jwt,) = data["experiments"]
    assert any(case["key"]["alg"] == HOSTILE for case in jwt["cases"]), "JSON keeps the raw value"


def test_across_machines_the_comment_labels_it_and_never_says_regression():
    """Issue 45: a pair of two machine identities is across machines (a CPU string alone is not), and no case
    is judged: the runs' 2x slower HS256 cases are shown, not called slower."""
    same_string = hostile_comparison(cpu__model="AMD EPYC 7B13")
    assert not same_string.across_machines, "another CPU string on one identity is one machine"
    result = hostile_comparison(elsewhere=True)
    assert result.across_machines
    assert result.environment.across_machines_because == ["Machine"]
    text = exporter("markdown").serialize(result)
    first = text.splitlines()[0]
    assert first.endswith("(across machines)")
    assert "not judged: across machines" in text
    assert "across machines: this compares two machines, it is not a regression test" in text
    assert "Across machines: the machine (intel-xeon-unknown-2c-2e892e → amd-epyc-zen3-2c-" in text
    assert all("not a regression" in line for line in text.splitlines() if "regression" in line)
    assert "| slower |" not in text, "no case is called slower across machines"
    assert "slower (across machines)" not in text
    page = compare_page.render_page([result], render.environment(ROOT / "templates"))
    assert '!!! warning "Across machines"' in page
    assert "not judged: across machines" in page
    assert json.loads(exporter("json").serialize(result))["across_machines"] is True


def test_the_json_export_has_everything(fixture_comparison):
    text = exporter("json").serialize(fixture_comparison)
    data = json.loads(text)
    assert data["format_version"] == FORMAT_VERSION
    assert (data["base"], data["new"]) == (FIXTURE_RUN.name, NEW_ID)
    assert data["across_machines"] is False
    assert [e["name"] for e in data["experiments"]] == [e.name for e in fixture_comparison.experiments]
    assert sum(len(e["cases"]) for e in data["experiments"]) == len(fixture_comparison.cases)
    assert data["summary"] == {str(v): n for v, n in fixture_comparison.counts().items()}
    assert data["method"]["tested_cases"] == fixture_comparison.tested
    assert data["advice_changes"][1] == {
        "experiment": "jwt",
        "key": "jwt.fastest-signer",
        "label": "Fastest signer",
        "base": None,
        "new": "Ed448",
        "tie": False,
    }
    assert data["advice_changes"][2]["tie"] is True
    cases = [case for e in data["experiments"] for case in e["cases"]]
    assert {case["verdict"] for case in cases} >= {"faster", "slower", "~", "new", "missing", "too few samples"}
    aead = data["experiments"][[e.name for e in fixture_comparison.experiments].index("aead")]
    assert aead["key_columns"][:3] == ["library", "algorithm", "operation"]
    faster = next(case for case in aead["cases"] if case["verdict"] == "faster")
    assert faster["key"]["algorithm"] == "aes-128-gcm"
    assert faster["ratio"] == pytest.approx(0.5, rel=0.01)
    assert faster["p_adjusted"] < 0.05
    assert faster["ratio_ci"][1] < 1 / 1.05
    too_few = next(case for case in cases if case["verdict"] == "too few samples")
    assert too_few["new"]["median_ci_ns"] == [None, None], "an infinite bound is null, not Infinity"
    assert "Infinity" not in text
    assert "NaN" not in text


def test_every_format_has_an_exporter():
    assert FORMATS == ("markdown", "json")
    with pytest.raises(comparison.ComparisonError, match="unknown format 'xml'"):
        exporter("xml")


def test_the_command_line_prints_markdown(capsys):
    assert main(["--root", str(ROOT), "compare", str(FIXTURE_RUN), str(FIXTURE_RUN)]) == 0
    out = capsys.readouterr().out
    assert out.startswith(f"## Benchmark comparison: {FIXTURE_RUN.name} → {FIXTURE_RUN.name}\n")
    assert "0 faster · 0 slower" in out


def test_the_command_line_writes_json_to_a_file(tmp_path, capsys):
    target = tmp_path / "comparison.json"
    argv = ["--root", str(ROOT), "compare", str(FIXTURE_RUN), str(FIXTURE_RUN), "--format", "json", "--out"]
    assert main([*argv, str(target)]) == 0
    assert str(target) in capsys.readouterr().out
    assert json.loads(target.read_text(encoding="utf-8"))["format_version"] == FORMAT_VERSION


def test_the_command_line_names_a_missing_run_directory_in_one_line(tmp_path, capsys):
    missing = tmp_path / "20260101T0000Z-nowhere-php8.2"
    assert main(["--root", str(ROOT), "compare", str(FIXTURE_RUN), str(missing)]) == 1
    err = capsys.readouterr().err
    assert err == f"error: NEW {missing}: no such run directory (expected data/runs/<run-id>/)\n"


def only(experiment, directory):
    """A copy of the fixture run whose only experiment with results is `experiment`."""
    target = directory / FIXTURE_RUN.name
    target.mkdir(parents=True)
    manifest = json.loads((FIXTURE_RUN / "manifest.json").read_text(encoding="utf-8"))
    for name, entry in manifest["experiments"].items():
        if name == experiment:
            for file_name in entry["files"]:
                (target / file_name).write_bytes((FIXTURE_RUN / file_name).read_bytes())
        else:
            manifest["experiments"][name] = {
                "status": "unavailable",
                "reason": "not measured in this test",
                "duration_s": 0.0,
                "files": [],
                "measured_by": None,
            }
    write_manifest(target, manifest)
    reseal(target)
    return target


def test_the_command_line_refuses_runs_with_no_experiment_in_common(tmp_path, capsys):
    base, new = only("aead", tmp_path / "a"), only("jwt", tmp_path / "b")
    assert main(["--root", str(ROOT), "compare", str(base), str(new)]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    assert err.startswith("error: ")
    assert "have no experiment in common" in err
    assert "has aead" in err
    assert "has jwt" in err


def test_advice_lists_changes_then_ties_then_what_another_profile_cannot_compare(fixture_comparison):
    changes = [
        AdviceChange("argon2", "argon2.budget.250", "Argon2 pick for 250 ms", "a", None),
        AdviceChange(
            "aead", "aead.fastest.1024", "Fastest at 1 KiB", "x or y (no measurable difference)", "y", tie=True
        ),
        AdviceChange("jwt", "jwt.choice", "Fastest signer", "ES256", "EdDSA"),
    ]
    profiles = tuple(
        replace(row, base="full", new="quick") if row.label == "Profile" else row
        for row in fixture_comparison.environment.rows
    )
    compared = replace(
        fixture_comparison,
        advice_changes=changes,
        environment=replace(fixture_comparison.environment, rows=profiles),
    )
    lines = markdown.advice_lines(compared)
    assert lines[0].startswith("Fastest signer: ES256 → EdDSA")
    assert lines[1].endswith("(a tie, within the spread between runs: not a change)")
    assert lines[2] == (
        "Argon2 pick for 250 ms: a → not stated (no results for it in this run) "
        "(not comparable: the full and quick profiles measure different cases)"
    )
