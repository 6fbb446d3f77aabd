"""Load as a confounder (issue 35, issue 44): which run a comparison calls loaded, on values.

compare/load.py reads two records of what else used the CPUs: the one around the experiment (the
manifest's per-experiment `system`, two readings of /proc/stat) and the one in the seconds before the
run started (`system.at_start`, schema 8). The record around the experiment wins when it says anything;
the reading before the run decides only without it. A run is loaded from LOADED_SHARE (25 %) of all
cores' time on, that share included. A comparison withholds an experiment's cases when either run of the
pair measured it loaded: BASE as much as NEW."""

from __future__ import annotations

import copy
import json

import pytest

from phpcb.compare import comparison, load
from phpcb.compare.comparison import Verdict
from phpcb.compare.exporters import json_export
from phpcb.compare.exporters.markdown import MarkdownExporter
from phpcb.data.loader import Run

from .test_comparison import CASES, EXPERIMENTS, FIXTURE_MANIFEST, SCHEMAS, case, runs_of

RUN_ID = "20260101T0000Z-load-php8.2"
TICKS = 10_000


def around(busy_ticks: int, own_cpu_ns: int | None = 0) -> dict:
    """Two readings TICKS ticks apart, `busy_ticks` of them not idle; the run's own CPU time 0 by default,
    so other processes' share is busy_ticks / TICKS (no clock tick conversion in play)."""
    reading = {"load_average": [1.0, 1.0, 1.0], "governor": None, "frequency_mhz": None}
    return {
        "before": {**reading, "own_cpu_ns": own_cpu_ns, "cpu_ticks": {"total": TICKS, "idle": 0, "steal": 0}},
        "after": {
            **reading,
            "own_cpu_ns": own_cpu_ns,
            "cpu_ticks": {"total": 2 * TICKS, "idle": TICKS - busy_ticks, "steal": 0},
        },
    }


def at_start(share: object) -> dict:
    """The manifest's run-wide `system` of schema 8: no readings of its own here, the share before the run."""
    return {
        "before": None,
        "after": None,
        "at_start": {"window_s": 2.0, "others_share": share, "steal_share": 0.0, "busy": True},
    }


def run_with(experiment_system: object = None, system: object = None, experiments: tuple[str, ...] = ("jwt",)) -> Run:
    """A run whose manifest records `experiment_system` around each of `experiments` and `system` for the run
    (either left out when None: a run written before schema 5 has neither)."""
    manifest = copy.deepcopy(FIXTURE_MANIFEST)
    manifest["run_id"] = RUN_ID
    manifest.pop("system", None)
    if system is not None:
        manifest["system"] = system
    manifest["experiments"] = {}
    for name in experiments:
        entry: dict = {"status": "ok", "reason": None, "duration_s": 1.0, "files": [f"{name}.csv"]}
        if experiment_system is not None:
            entry["system"] = experiment_system
        manifest["experiments"][name] = entry
    return Run.from_rows(RUN_ID, manifest, {})


def test_loaded_from_a_quarter_of_all_cores_time_on():
    assert load.LOADED_SHARE == 0.25


@pytest.mark.parametrize(
    ("busy_ticks", "expected"),
    [
        (2499, None),  # 24.99 %: just below
        (2500, 0.25),  # exactly the threshold: loaded
        (2501, 0.2501),
        (9000, 0.9),
    ],
    ids=["just below", "at", "just above", "far above"],
)
def test_the_record_around_the_experiment_at_its_edge(busy_ticks, expected):
    found = load.loaded(run_with(around(busy_ticks)), "jwt")
    if expected is None:
        assert found is None
        return
    assert found == load.LoadedExperiment(RUN_ID, "jwt", pytest.approx(expected), before_the_run=False)


@pytest.mark.parametrize(
    ("share", "expected"),
    [
        (0.2499, None),
        (0.25, 0.25),
        (0.2501, 0.2501),
        (0, None),  # JSON `0`: an int
        (1, 1.0),  # JSON `1`: an int, loaded, and kept as a float
        (0.9, 0.9),
    ],
    ids=["just below", "at", "just above", "int 0", "int 1", "far above"],
)
def test_the_reading_before_the_run_at_its_edge_and_as_an_integer(share, expected):
    found = load.loaded(run_with(system=at_start(share)), "jwt")
    if expected is None:
        assert found is None
        return
    assert found == load.LoadedExperiment(RUN_ID, "jwt", expected, before_the_run=True)
    assert type(found.others_share) is float


@pytest.mark.parametrize(
    ("around_ticks", "before", "expected"),
    [
        (0, 0.9, None),  # a record around of 0 % wins over 90 % before the run: not loaded
        (2499, 1, None),
        (2500, 0.0, (0.25, False)),  # loaded around the experiment, quiet before: loaded, by the record around
        (9000, 0.3, (0.9, False)),  # both loaded: the record around is the one named
    ],
    ids=["quiet around, loaded before", "just below around, int 1 before", "loaded around only", "both"],
)
def test_the_record_around_the_experiment_wins_over_the_reading_before_the_run(around_ticks, before, expected):
    found = load.loaded(run_with(around(around_ticks), at_start(before)), "jwt")
    if expected is None:
        assert found is None
        return
    share, before_the_run = expected
    assert found == load.LoadedExperiment(RUN_ID, "jwt", pytest.approx(share), before_the_run=before_the_run)


@pytest.mark.parametrize(
    "record",
    [
        around(9000, own_cpu_ns=None),  # the run's own CPU time not read: no share of others
        {**around(9000), "before": None},  # one reading only
        {"before": around(9000)["before"], "after": {**around(9000)["after"], "cpu_ticks": None}},
    ],
    ids=["own time not read", "no reading before", "no ticks after"],
)
def test_a_record_around_that_says_nothing_leaves_the_reading_before_the_run_to_decide(record):
    found = load.loaded(run_with(record, at_start(0.5)), "jwt")
    assert found == load.LoadedExperiment(RUN_ID, "jwt", 0.5, before_the_run=True)
    assert load.loaded(run_with(record, at_start(0.1)), "jwt") is None


@pytest.mark.parametrize(
    "system",
    [
        None,  # no `system` at all (a run before schema 5)
        {"before": None, "after": None},  # no reading before the run (schema 5 to 7)
        {"before": None, "after": None, "at_start": None},
        {"before": None, "after": None, "at_start": {"window_s": 2.0}},  # no share in it
        {"before": None, "after": None, "at_start": {"others_share": None}},
        {"before": None, "after": None, "at_start": {"others_share": "0.9"}},  # not a number
        {"before": None, "after": None, "at_start": [0.9]},  # not a mapping
        "busy",
    ],
    ids=["no system", "no at_start", "at_start null", "no share", "share null", "share text", "list", "text"],
)
def test_a_run_without_any_record_is_not_called_loaded(system):
    assert load.loaded(run_with(system=system), "jwt") is None


def test_an_experiment_the_manifest_does_not_name_takes_the_reading_before_the_run():
    run = run_with(system=at_start(0.6), experiments=("aead",))
    assert load.loaded(run, "jwt") == load.LoadedExperiment(RUN_ID, "jwt", 0.6, before_the_run=True)


def test_each_experiment_is_judged_by_its_own_record():
    manifest = run_with(around(0), experiments=("jwt", "aead")).manifest
    manifest["experiments"]["aead"]["system"] = around(5000)
    run = Run.from_rows(RUN_ID, manifest, {})
    assert load.loaded(run, "jwt") is None
    assert load.loaded(run, "aead") == load.LoadedExperiment(RUN_ID, "aead", 0.5, before_the_run=False)


def test_the_sentence_names_the_run_the_share_and_when():
    during = load.LoadedExperiment("r1", "jwt", 0.456, before_the_run=False)
    assert during.sentence == "r1: other processes used 45.6 % of all cores' time while it measured jwt"
    before = load.LoadedExperiment("r2", "jwt", 1.0, before_the_run=True)
    expected = "r2: other processes used 100.0 % of all cores' time in the seconds before the run started"
    assert before.sentence == expected


# The comparison: a loaded run on either side of the pair withholds the experiment's timings.
def pair(base_busy: int | None, new_busy: int | None) -> tuple[Run, Run]:
    base, new = runs_of(CASES)
    for run, busy in ((base, base_busy), (new, new_busy)):
        if busy is not None:
            run.manifest["experiments"]["jwt"]["system"] = around(busy)
    return base, new


@pytest.mark.parametrize(
    ("base_busy", "new_busy", "loaded"),
    [
        (None, None, []),
        (0, 2499, []),
        (2499, 0, []),
        (2500, None, ["base"]),
        (None, 2500, ["new"]),
        (9000, 3000, ["base", "new"]),
    ],
    ids=["no records", "new just below", "base just below", "base at", "new at", "both"],
)
def test_a_loaded_run_on_either_side_withholds_the_cases(base_busy, new_busy, loaded):
    base, new = pair(base_busy, new_busy)
    result = comparison.compare(base, new, SCHEMAS, [EXPERIMENTS["jwt"]])
    runs = {"base": base.run_id, "new": new.run_id}
    assert [found.run_id for found in result.loaded] == [runs[side] for side in loaded], "BASE named first"
    assert all(found.experiment == "jwt" and not found.before_the_run for found in result.loaded)
    counts = result.counts()
    if loaded:
        assert case(result, "slower").verdict is Verdict.LOADED
        assert case(result, "faster").verdict is Verdict.LOADED
        assert result.tested == 0
        assert counts[Verdict.FASTER] == counts[Verdict.SLOWER] == counts[Verdict.SAME] == 0
        # 20 background cases, faster, slower, only-the-shift, within-the-floor: every timing withheld.
        assert counts[Verdict.LOADED] == 24
        assert (counts[Verdict.NEW], counts[Verdict.MISSING], counts[Verdict.TOO_FEW]) == (1, 1, 1)
        assert counts[Verdict.IDENTICAL] == 1
        (shift,) = result.experiments[0].shifts
        assert shift.cases == 24, "the shift is still taken over the withheld cases: what the load did"
    else:
        assert case(result, "slower").verdict is Verdict.SLOWER
        assert case(result, "faster").verdict is Verdict.FASTER
        assert result.tested == 24
        assert counts[Verdict.LOADED] == 0


def test_a_loaded_base_is_named_before_the_environment_like_a_loaded_new():
    base, new = pair(4000, None)
    result = comparison.compare(base, new, SCHEMAS, [EXPERIMENTS["jwt"]])
    text = MarkdownExporter().serialize(result)
    named = f"Loaded: {base.run_id}: other processes used 40.0 % of all cores&#39; time while it measured jwt."
    assert named in text
    assert text.index(named) < text.index("### Environment")


def test_both_loaded_are_named_and_exported_with_their_shares():
    base, new = pair(9000, None)
    new.manifest["experiments"]["jwt"].pop("system", None)
    new.manifest["system"] = at_start(1)
    result = comparison.compare(base, new, SCHEMAS, [EXPERIMENTS["jwt"]])
    exported = json_export.to_dict(result)["loaded"]
    assert exported == [
        {"run": base.run_id, "experiment": "jwt", "others_share": pytest.approx(0.9), "before_the_run": False},
        {"run": new.run_id, "experiment": "jwt", "others_share": 1.0, "before_the_run": True},
    ]
    assert json.dumps(exported[1]["others_share"]) == "1.0", "an integer share is written as a share"
