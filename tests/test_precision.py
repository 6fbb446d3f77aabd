"""What a run says of its own precision and noise, and what the pages make of it."""

from __future__ import annotations

import csv
import io
import json
import math
from dataclasses import dataclass, replace
from pathlib import Path

import numpy as np
import pytest

from phpcb.data.loader import Run, load_run
from phpcb.data.sampling import UNPAIRED, Load, Pairing, Sampling, measured_tables
from phpcb.data.schema import Schemas, load_schemas
from phpcb.pages import build as site
from phpcb.presentation import render
from phpcb.presentation.precision import (
    OTHERS_WARNING,
    OUTLIER_WARNING,
    STEAL_WARNING,
    Precision,
    Reached,
    precision,
    reached,
    short_of_target,
    short_of_target_rate,
)
from phpcb.statistics import stats
from phpcb.statistics.sample_counts import SampleCounts

from .conftest import FIXTURE_RUN, ROOT, V4_RUN, reseal, write_manifest

SCHEMAS = load_schemas(ROOT / "data" / "schema")


def reading(total: int, idle: int, steal: int, load: float = 0.5, own_s: float = 0.0) -> dict:
    return {
        "cpu_ticks": {"total": total, "idle": idle, "steal": steal},
        "own_cpu_ns": int(own_s * 1e9),
        "load_average": [load, 0.4, 0.3],
        "governor": "performance",
        "frequency_mhz": 3000.0,
    }


def test_two_readings_give_the_share_of_cpu_time_stolen_busy_and_taken_by_others():
    # 2000 ticks (20 s of all cores' time), 1000 busy, of which the run's own 6 s (600 ticks).
    load = Load.of({"before": reading(1000, 800, 10, 0.2, 1.0), "after": reading(3000, 1800, 110, 1.5, 7.0)})
    assert load is not None
    assert (load.steal_share, load.busy_share, load.others_share) == pytest.approx((0.05, 0.5, 0.2))
    assert (load.load_before, load.load_after, load.governor, load.frequency_mhz) == (0.2, 1.5, "performance", 3000.0)


def test_missing_readings_are_not_a_load():
    assert Load.of(None) is None
    assert Load.of({"before": reading(1, 1, 0), "after": None}) is None
    unreadable = {**reading(1, 1, 0), "cpu_ticks": None, "own_cpu_ns": None, "load_average": None}
    partial = Load.of({"before": unreadable, "after": unreadable})
    assert partial is not None
    assert (partial.steal_share, partial.others_share, partial.load_before) == (None, None, None)


def test_pairing_needs_the_run_to_say_the_cases_were_sampled_together():
    pairing = Pairing(("operation", "payload_bytes"))
    assert pairing.together(
        {"operation": "encrypt", "payload_bytes": 16}, {"operation": "encrypt", "payload_bytes": 16}
    )
    assert not pairing.together(
        {"operation": "encrypt", "payload_bytes": 16}, {"operation": "decrypt", "payload_bytes": 16}
    )

    @dataclass
    class Key:
        operation: str
        payload_bytes: int

    assert pairing.together(Key("encrypt", 16), {"operation": "encrypt", "payload_bytes": 16})
    assert not UNPAIRED.together({"a": 1}, {"a": 1})


def test_the_fixture_run_pairs_what_its_runner_interleaved_and_an_upgraded_run_pairs_nothing():
    run = load_run(FIXTURE_RUN, SCHEMAS)
    assert Pairing.of(run, "aead", "aead.csv").columns == ("operation", "payload_bytes", "aad_bytes")
    assert Pairing.of(run, "argon2", "argon2.csv").columns is None, "Argon2 cells are not interleaved"
    old = load_run(V4_RUN, SCHEMAS)
    assert Pairing.of(old, "aead", "aead.csv").columns is None
    assert Sampling.of(old.experiment("aead")) is None


def quiet(
    sampling: Sampling | None = None, steal: float = 0.0, mild: int = 0, samples: int = 1000, others: float = 0.1
) -> Precision:
    load = Load(steal, 0.6, others, 0.1, 0.1, None, None)
    reached = Reached(sampling.cases, sampling.within_target, sampling.target) if sampling else None
    return Precision(sampling, samples, stats.Outliers(mild, 0), load, reached)


def test_a_quiet_precise_run_has_no_warning():
    assert quiet(Sampling(0.03, 7, 100, 95, {})).warnings == []


def one_table_run(rows: list[dict], entry: dict | None = None) -> tuple[Run, str, Schemas]:
    """A run in memory of one experiment "x" whose one table holds `rows` (case, sample, iterations,
    elapsed_ns), its manifest entry extended by `entry`: the arguments of precision()."""
    experiment = {"status": "ok", "files": ["x.csv"], **(entry or {})}
    manifest = {"run_id": "20260101T0000Z-t-php8.2", "experiments": {"x": experiment}}
    run = Run.from_rows(manifest["run_id"], manifest, {"x.csv": rows})
    schemas = replace(SCHEMAS, tables={"x.csv": replace(SCHEMAS.tables["aead.csv"], primary_key=("case", "sample"))})
    return run, "x", schemas


def test_cases_within_target_are_counted_from_the_samples_the_pages_print():
    """The runner judged each case when it stopped sampling it; later rounds add samples (and the
    machine's drift between rounds). The pages count what their CIs show, whatever the runner said."""
    rng = np.random.default_rng(3)
    narrow = [
        {"case": "narrow", "sample": s, "iterations": 1, "elapsed_ns": int(1000 * rng.normal(1, 0.001))}
        for s in range(30)
    ]
    wide = [
        {"case": "wide", "sample": s, "iterations": 1, "elapsed_ns": int(1000 * (1 + 0.5 * (s % 2)))} for s in range(30)
    ]
    sampling = {"target": 0.03, "minimum_samples": 7, "cases": 2, "within_target": 2, "interleaved_by": {}}
    found = precision(*one_table_run(narrow + wide, {"sampling": sampling}))
    assert found.sampling is not None
    assert found.sampling.within_target == 2, "the runner's tally said both"
    assert found.reached == Reached(2, 1, 0.03)
    assert "only 1 of 2 cases reached ±3 %" in found.warnings[0]


@pytest.mark.parametrize(
    ("precision_", "says"),
    [
        (quiet(steal=STEAL_WARNING), "the hypervisor took 5.0 % of the CPU time"),
        (quiet(mild=int(OUTLIER_WARNING * 1000)), "70 of its 1,000 samples (7.0 %) are outliers"),
        (quiet(Sampling(0.03, 7, 100, 89, {})), "only 89 of 100 cases reached ±3 %"),
        (quiet(others=OTHERS_WARNING), "other processes kept the machine busy for 25.0 % of all cores' time"),
    ],
)
def test_heavy_steal_many_outliers_or_low_precision_are_warned_of(precision_, says):
    assert len(precision_.warnings) == 1
    assert says in precision_.warnings[0]


def test_the_outliers_are_the_sum_over_the_experiments_cases():
    run = load_run(FIXTURE_RUN, SCHEMAS)
    found = precision(run, "aead", SCHEMAS)
    cases = [v for _, table in measured_tables(run, "aead", SCHEMAS) for v in table.values()]
    assert found.samples == sum(v.size for v in cases)
    assert found.outliers.mild == sum(stats.tukey_outliers(v).mild for v in cases)
    assert found.sampling is not None
    assert found.sampling.cases == len(cases)


def test_the_samples_of_a_case_are_in_the_order_they_were_taken():
    """Sample r of two interleaved cases is round r however the rows are ordered in the file."""
    run = load_run(FIXTURE_RUN, SCHEMAS)
    table = dict(measured_tables(run, "aead", SCHEMAS))["aead.csv"]
    key = SCHEMAS.tables["aead.csv"].key
    reordered = sorted(run.tables["aead.csv"], key=lambda row: -int(row["sample"]))
    measure = SCHEMAS.tables["aead.csv"].measure
    assert measure is not None
    by_case = stats.per_op_by_case(reordered, lambda row: tuple(row[column] for column in key), measure)
    assert by_case.keys() == table.keys()
    assert all(np.array_equal(by_case[case], table[case]) for case in table)
    assert any(np.ptp(values) > 0 for values in table.values()), "the order matters: the samples differ"


@pytest.fixture
def unstable_project(make_project) -> Path:
    root = make_project(FIXTURE_RUN)
    path = root / "data" / "runs" / FIXTURE_RUN.name / "manifest.json"
    manifest = json.loads(path.read_text(encoding="utf-8"))
    manifest["experiments"]["aead"]["system"] = {"before": reading(1000, 500, 0), "after": reading(2000, 900, 120)}
    write_manifest(path.parent, manifest)
    return root


def test_a_page_of_a_run_with_heavy_steal_says_so(unstable_project: Path):
    generated = site.build(unstable_project)
    aead = generated.pages["experiments/aead.md"]
    assert '!!! warning "This run\'s numbers may be unstable"' in aead
    assert "the hypervisor took 12.0 % of the CPU time while it measured (CPU steal)" in aead
    assert '!!! warning "This run' not in generated.pages["experiments/jwt.md"], "only the experiment that saw it"
    sampling = json.loads((FIXTURE_RUN / "manifest.json").read_text())["experiments"]["aead"]["sampling"]
    assert f"Precision: {sampling['within_target']} of {sampling['cases']} cases within ±3 %" in aead
    assert f"{sampling['within_target']} of {sampling['cases']} cases within ±3 %" in generated.pages["runs.md"]


def test_the_cli_summarises_a_runs_precision_in_a_few_lines(capsys: pytest.CaptureFixture[str]):
    from phpcb.commands.main import main

    assert main(["--root", str(ROOT), "precision", str(FIXTURE_RUN)]) == 0
    out = capsys.readouterr().out.splitlines()
    manifest = json.loads((FIXTURE_RUN / "manifest.json").read_text())
    for name, entry in manifest["experiments"].items():
        sampling = entry["sampling"]
        row = next(line for line in out if line.startswith(name + " "))
        assert f"{sampling['within_target']}/{sampling['within_target']} = 100.0% of ±3%" in row, row
    assert any(line.startswith("harness overhead, aes-256-gcm 16 B: harness/bare 1.000") for line in out)
    cases = sum(entry["sampling"]["cases"] for entry in manifest["experiments"].values())
    assert f"precision reached: {cases:,} of {cases:,} cases (100.0%) within their target" in out


@pytest.mark.parametrize(
    ("fewest", "says"),
    [
        (5, "at least 7 samples a case, 5 for the slowest (their minimum did not fit in their time) |"),
        (7, "at least 7 samples a case |"),
    ],
)
def test_the_precision_table_gives_the_fewest_samples_when_slow_cases_took_fewer_than_the_minimum(fewest, says):
    run = load_run(FIXTURE_RUN, SCHEMAS)
    template = render.environment(ROOT / "templates").get_template("_precision.md.j2")
    counts = SampleCounts(cases=3, fewest=fewest, median=9.0, most=20)

    table = template.render(precision=precision(run, "aead", SCHEMAS), sample_counts=counts)

    assert says in table


def test_a_case_short_of_its_target_says_so_beside_its_number_and_nowhere_else():
    found = quiet(Sampling(0.03, 7, 100, 95, {}))
    # (1,040 − 960) / (2 × 1,000) = ±4 %: not within ±3 %; ±2 % is.
    assert short_of_target(found, 1000.0, 960.0, 1040.0) == ", not within ±3 % in its time"
    assert short_of_target(found, 1000.0, 980.0, 1020.0) == ""
    assert short_of_target(found, 1000.0, 970.0, 1030.0) == "", "exactly the target is within it, as the runner judges"
    assert short_of_target(found, 1000.0, -math.inf, math.inf) == "", "no CI (3 rounds): not a sampled case's number"
    assert short_of_target(None, 1000.0, 500.0, 1500.0) == "", "a page without its experiment's precision"
    assert short_of_target(replace(found, reached=None), 1000.0, 500.0, 1500.0) == "", "a run that recorded no target"


@pytest.mark.parametrize("spread", [0.0, 0.01, 0.02, 0.029, 0.031, 0.05, 0.2])
def test_a_throughput_is_short_of_its_target_exactly_when_its_times_are(spread: float):
    values = np.array([1000.0 * (1 + spread * ((s % 5) - 2) / 2) for s in range(25)])
    summary = stats.summarize(values)
    found = quiet(Sampling(0.03, 7, 100, 95, {}))
    by_time = short_of_target(found, summary.median_ns, summary.ci_low_ns, summary.ci_high_ns)
    by_rate = short_of_target_rate(found, summary.mb_per_s(4096), summary.mb_per_s_interval(4096))
    assert by_time == by_rate
    assert (by_time == "") == stats.within_target(values, 0.03)


def test_the_filters_put_it_beside_time_and_throughput_and_judge_the_runs_own_interval():
    env = render.environment(ROOT / "templates")
    found = quiet(Sampling(0.03, 7, 100, 95, {}))
    wide = stats.summarize(np.array([900.0, 1000.0, 1100.0] * 5))
    narrow = stats.summarize(np.array([999.0, 1000.0, 1001.0] * 5))
    template = env.from_string(
        "{{ w | time_spread }} / {{ w | time_ci }} / {{ n | time_spread }} / {{ rate_spread(w.mb_per_s(64), "
        "w.mb_per_s_interval(64)) }} / {{ rate_ci(n.mb_per_s(64), n.mb_per_s_interval(64)) }}"
    )
    shown = template.render(w=wide, n=narrow, precision=found).split(" / ")
    assert [part.endswith(", not within ±3 % in its time") for part in shown] == [True, True, False, True, False]
    assert "not within" not in template.render(w=wide, n=narrow), "no precision in the context: nothing said"


def test_a_page_prints_the_note_beside_the_case_that_ran_out_of_time(make_project):
    root = make_project(FIXTURE_RUN)
    run = root / "data" / "runs" / FIXTURE_RUN.name
    rows = list(csv.DictReader(io.StringIO((run / "jwt.csv").read_text())))
    for row in rows:
        if (row["alg"], row["operation"], row["payload_chars"]) == ("ES256", "sign", "100"):  # odd samples 30 % slower
            row["elapsed_ns"] = str(round(int(row["elapsed_ns"]) * (1.3 if int(row["sample"]) % 2 else 1.0)))
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=list(rows[0]), lineterminator="\n")
    writer.writeheader()
    writer.writerows(rows)
    (run / "jwt.csv").write_text(out.getvalue())
    reseal(run)

    page = site.build(root).pages["experiments/jwt.md"]
    es256 = next(line for line in page.splitlines() if line.startswith("| ES256 |"))
    cells = [cell.strip() for cell in es256.split("|")]
    assert cells[3].endswith(", not within ±3 % in its time"), "its sign time at the headline payload"
    assert "not within" not in cells[4] + cells[6], "its verify and keygen reached the target"
    tokens = next(line for line in page.splitlines() if line.startswith("| 100 | ES256 |"))
    assert tokens.count("not within ±3 % in its time") == 1, "and in the table by payload, beside sign only"
    assert (
        '| short of the target | 1 case: where the page prints one, the number says "not within ±3 % in its time"'
        in page
    )


def test_a_throughput_interval_is_judged_as_the_times_it_stands_for():
    """The synthetic spreads above give order-statistic CIs of one value; these intervals are given."""
    found = quiet(Sampling(0.03, 7, 100, 95, {}))
    # 100 MB/s within 96-104: the times 1/104 to 1/96 around 1/100, ±4.0 %; 99-101: ±1.0 %.
    assert short_of_target_rate(found, 100.0, (96.0, 104.0)) == ", not within ±3 % in its time"
    assert short_of_target_rate(found, 100.0, (99.0, 101.0)) == ""
    assert short_of_target_rate(found, 0.5, (0.25, 0.75)) == ", not within ±3 % in its time", "under 1 MB/s too"
    for rate, interval in ((0.0, (1.0, 2.0)), (100.0, (0.0, 200.0)), (100.0, (50.0, math.inf)), (math.nan, (1.0, 2.0))):
        assert short_of_target_rate(found, rate, interval) == "", (rate, interval)
    assert short_of_target(found, 0.0, 0.0, 1.0) == "", "a median of 0 has no half-width to judge"


def test_reached_counts_what_precision_counts_whether_or_not_it_was_asked_before():
    run = load_run(FIXTURE_RUN, SCHEMAS)
    first = reached(run, "aead", SCHEMAS)
    assert first is not None
    assert first == precision(run, "aead", SCHEMAS).reached
    assert reached(run, "aead", SCHEMAS) == first, "from the answer precision() kept"
    manifest = json.loads(json.dumps(run.manifest))
    del manifest["experiments"]["aead"]["sampling"]  # as a run before schema version 5 recorded it
    older = replace(run, manifest=manifest)
    assert reached(older, "aead", SCHEMAS) is None
    assert precision(older, "aead", SCHEMAS).reached is None


def test_precision_counts_each_outlier_once_mild_and_severe_alike():
    values = [1000] * 29 + [5000]
    rows = [{"case": "spiky", "sample": s, "iterations": 1, "elapsed_ns": v} for s, v in enumerate(values)]
    expected = stats.tukey_outliers(np.array(values, dtype=float))
    assert expected.mild >= 1
    assert expected.severe >= 1
    assert precision(*one_table_run(rows)).outliers == expected
