"""How widely a run's samples spread against its machine's other runs of the stack and profile
(statistics/sample_spread.py), and the line `python -m phpcb precision` prints of it."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest

from phpcb.data.loader import load_run
from phpcb.data.schema import load_schemas
from phpcb.pages import build as site
from phpcb.presentation import wording
from phpcb.statistics.sample_spread import USUAL, SampleSpread, case_spreads, of_runs, sample_spread

from .conftest import FIXTURE_RUN, ROOT, project_with, reseal, write_manifest
from .test_machine_speed import copy_of_the_fixture, precision_line, rescaled

GCM = ("aead.csv", ("openssl", "aes-128-gcm"))
CCM = ("aead.csv", ("openssl", "aes-128-ccm"))
SCHEMAS = load_schemas(ROOT / "data" / "schema")


def test_a_case_spread_is_its_interquartile_range_over_its_median_whatever_its_number_of_samples():
    nine = [110.0, 90.0, 94.0, 96.0, 98.0, 100.0, 102.0, 104.0, 106.0]
    found = case_spreads([("aead.csv", {"nine": nine, "eighteen": nine * 2, "six": nine[:6]})])
    assert found[("aead.csv", "nine")] == pytest.approx((104 - 96) / 100), "quartiles 96 and 104, median 100"
    assert found[("aead.csv", "eighteen")] == pytest.approx(found[("aead.csv", "nine")]), "more samples, same spread"
    assert ("aead.csv", "six") not in found, "fewer than the quick profile's least: no quartiles to compare"


def test_a_run_twice_as_spread_as_its_peers_median_run_is_named_so_and_said_to_be_noisier():
    peers = [{GCM: 0.02, CCM: 0.04}, {GCM: 0.03, CCM: 0.06}, {GCM: 0.30, CCM: 0.60}]
    found = sample_spread({GCM: 0.06, CCM: 0.12}, peers)
    assert found is not None
    assert math.isclose(found.index, 2.0), "against each case's median of the peers (0.03 and 0.06), not its mean"
    assert (found.cases, found.peers) == (2, 3)
    assert not found.usual
    assert wording.sample_spread(found).startswith("wider than usual: the host was noisier")


def test_cases_no_peer_measured_or_without_spread_are_left_out_and_none_shared_is_no_index():
    found = sample_spread({GCM: 0.05, CCM: 0.0}, [{GCM: 0.05, CCM: 0.04}, {}])
    assert found is not None
    assert (found.index, found.cases, found.peers) == (1.0, 1, 1), "a zero spread has no log ratio"
    assert sample_spread({CCM: 0.05}, [{GCM: 0.05}]) is None
    assert sample_spread({GCM: 0.05}, []) is None


@pytest.mark.parametrize(
    ("index", "says"),
    [
        (1 / USUAL - 0.01, "narrower than usual: the host was quieter"),
        (1 / USUAL, "as usual (within 1.5× either way)"),
        (USUAL, "as usual (within 1.5× either way)"),
        (USUAL + 0.01, "wider than usual: the host was noisier"),
    ],
)
def test_only_a_spread_beyond_the_usual_either_way_is_called_noisier_or_quieter(index: float, says: str):
    assert wording.sample_spread(SampleSpread(index, 10, 3)).startswith(says)


def widened(run: Path, factor: float) -> None:
    """Every other sample of every timing table but the native ones `factor` times slower: the same
    median's neighbourhood, quartiles further apart. Re-sealed."""
    timed = [
        table
        for table in run.glob("*.csv")
        if {"sample", "elapsed_ns"} <= set(table.read_text(encoding="utf-8").split("\n", 1)[0].split(","))
        and not table.name.endswith("_native.csv")
    ]
    rescaled(run, timed, lambda row: factor if int(row["sample"]) % 2 else 1.0)


def spread_of(root: Path, run: Path) -> str:
    return precision_line(root, run, "sample spread")


def test_precision_says_how_widely_the_samples_spread_against_the_machines_other_runs_of_its_profile(tmp_path: Path):
    root = project_with(tmp_path, FIXTURE_RUN)
    runs = root / "data" / "runs"
    assert spread_of(root, runs / FIXTURE_RUN.name).startswith("sample spread: no other run of ")
    copy_of_the_fixture(runs, "20260102T0000Z-fixture-php8.2")
    copy_of_the_fixture(runs, "20260103T0000Z-fixture-php8.2")
    noisy = copy_of_the_fixture(runs, "20260104T0000Z-fixture-php8.2")
    widened(noisy, 1.3)
    line = spread_of(root, noisy)
    assert line.startswith("sample spread: cases' interquartile range at ")
    index = float(line.split(" at ", 1)[1].split("×", 1)[0])
    assert index > USUAL, line
    assert "× the median of 3 other run(s) of " in line
    assert " · quick profile (" in line
    assert line.endswith("the medians need not have moved")
    usual = spread_of(root, runs / FIXTURE_RUN.name)
    assert "at 1.00× the median of 3 other run(s)" in usual, "the noisy run is one of three: not their median"
    assert usual.endswith(": as usual (within 1.5× either way)")

    # A run of another profile samples more operations at a time: no peer.
    manifest = json.loads((noisy / "manifest.json").read_text(encoding="utf-8"))
    write_manifest(noisy, {**manifest, "profile": "full"})
    reseal(noisy)
    assert spread_of(root, noisy).startswith("sample spread: no other run of ")


def test_the_runs_page_gives_each_runs_sample_spread_where_it_has_peers(tmp_path: Path, fixture_run_site):
    root = project_with(tmp_path, FIXTURE_RUN)
    runs = root / "data" / "runs"
    copy_of_the_fixture(runs, "20260102T0000Z-fixture-php8.2")
    copy_of_the_fixture(runs, "20260103T0000Z-fixture-php8.2")
    widened(copy_of_the_fixture(runs, "20260104T0000Z-fixture-php8.2"), 1.3)
    page = site.build(root).pages["runs.md"]
    sections = {part.split("`", 1)[0]: part for part in page.split("\n## `")[1:]}
    says = (
        "each case's interquartile range over its median against this machine's 3 other runs of the stack and profile"
    )
    noisy = sections["20260104T0000Z-fixture-php8.2"]
    assert says in noisy
    assert "× their median, wider than usual: the host was noisier" in noisy
    assert "1.00× their median, as usual (within 1.5× either way)" in sections[FIXTURE_RUN.name]
    assert "Sample spread" not in fixture_run_site.pages["runs.md"], (
        "no other run of the machine: nothing to set it against"
    )


def test_a_case_counts_from_seven_samples_and_a_positive_median_whatever_comes_before_it():
    seven = [90, 94, 96, 100, 104, 106, 110]  # whole nanoseconds, as a table may hold them
    found = case_spreads(
        [
            (
                "aead.csv",
                {
                    "six": seven[:6],
                    "seven": seven,
                    "zero": [0.0] * 7,
                    "tiny": [t / 1000 for t in seven],
                },
            )
        ]
    )
    assert found == pytest.approx({("aead.csv", "seven"): (105 - 95) / 100, ("aead.csv", "tiny"): (105 - 95) / 100})


def test_runs_are_peers_only_of_runs_of_their_machine_stack_timer_and_profile(tmp_path: Path):
    """A full run alone first, then two quick runs of the fixture: the full one has no peer; each quick one
    has the other, as spread as itself."""
    full = copy_of_the_fixture(tmp_path, "20260101T0100Z-fixture-php8.2")
    manifest = json.loads((full / "manifest.json").read_text(encoding="utf-8"))
    manifest["profile"] = "full"
    write_manifest(full, manifest)
    reseal(full)
    quick = [copy_of_the_fixture(tmp_path, f"2026010{day}T0000Z-fixture-php8.2") for day in (2, 3)]
    runs = [load_run(path, SCHEMAS) for path in (full, *quick)]
    found = of_runs(runs, SCHEMAS)
    assert found[runs[0].run_id] is None
    for run in runs[1:]:
        spread = found[run.run_id]
        assert spread is not None
        assert (spread.index, spread.peers) == (1.0, 1)
