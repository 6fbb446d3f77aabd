"""How fast the machine ran in a run against its other runs of the same stack (statistics/machine_speed.py),
from the native figures every run measures, and the line `python -m phpcb precision` prints of it."""

from __future__ import annotations

import csv
import io
import json
import math
import shutil
from collections.abc import Callable, Iterable
from dataclasses import replace
from pathlib import Path

import pytest

from phpcb.commands import precision as precision_command
from phpcb.data.loader import load_run
from phpcb.data.schema import load_schemas
from phpcb.pages import build as site
from phpcb.presentation import wording
from phpcb.statistics.machine_speed import NATIVE_COLUMNS, USUAL, MachineSpeed, machine_speed, native_times
from phpcb.statistics.rounds import NativeKey

from .conftest import FIXTURE_RUN, ROOT, project_with, reseal, write_manifest

SCHEMAS = load_schemas(ROOT / "data" / "schema")
SIGN = ("ec_keygen_native.csv", NativeKey("ecdsap256", "sign", 0))
VERIFY = ("ec_keygen_native.csv", NativeKey("ecdsap256", "verify", 0))


def test_a_run_whose_figures_took_a_quarter_longer_ran_at_80_percent_of_its_usual_speed():
    peers = [{SIGN: 100.0, VERIFY: 50.0}, {SIGN: 110.0, VERIFY: 55.0}, {SIGN: 1000.0, VERIFY: 500.0}]
    found = machine_speed({SIGN: 137.5, VERIFY: 68.75}, peers)
    assert found is not None
    assert math.isclose(found.index, 0.8), "against each figure's median of the peers (110 and 55), not its mean"
    assert (found.figures, found.peers) == (2, 3)
    assert wording.machine_speed(found).startswith("it ran at 80% of its usual speed")


def test_figures_no_peer_measured_are_left_out_and_none_shared_is_no_speed():
    found = machine_speed({SIGN: 100.0, VERIFY: 1.0}, [{SIGN: 100.0}, {}])
    assert found is not None
    assert (found.index, found.figures, found.peers) == (1.0, 1, 1), "a peer without native figures (--no-native)"
    assert machine_speed({VERIFY: 1.0}, [{SIGN: 100.0}]) is None
    assert machine_speed({SIGN: 1.0}, []) is None


@pytest.mark.parametrize(
    ("index", "says"),
    [
        (1 - USUAL - 0.01, "it ran at 94% of its usual speed"),
        (1 - USUAL + 0.01, "its usual speed (within 5%)"),
        (1 + USUAL + 0.01, "it ran at 106% of its usual speed"),
    ],
)
def test_only_a_speed_beyond_the_usual_spread_is_called_slower_or_faster(index, says):
    assert wording.machine_speed(MachineSpeed(index, 3, 3)).startswith(says)


def test_only_the_native_rounds_tables_give_figures_each_its_median_time_per_operation():
    run = load_run(FIXTURE_RUN, SCHEMAS)
    found = native_times(run.tables, lambda name: SCHEMAS.tables[name].columns)
    tables = {name for name, _ in found}
    assert tables == {name for name in run.tables if name.endswith("_native.csv")}, "not native.csv: no rounds"
    assert found[SIGN] == pytest.approx(202.4), "200,000 and 204,800 ns for 1,000 signatures in its two rounds"


def scale_times(table: Path, factor: Callable[[dict[str, str]], float]) -> None:
    """Each row's elapsed_ns of a run's CSV multiplied by `factor(row)`, in place (the run needs re-sealing)."""
    rows = list(csv.DictReader(io.StringIO(table.read_text(encoding="utf-8"))))
    for row in rows:
        row["elapsed_ns"] = str(round(int(row["elapsed_ns"]) * factor(row)))
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=list(rows[0]), lineterminator="\n")
    writer.writeheader()
    writer.writerows(rows)
    table.write_text(out.getvalue(), encoding="utf-8")


def rescaled(run: Path, tables: Iterable[Path], factor: Callable[[dict[str, str]], float]) -> None:
    """scale_times of each of the run's `tables` by `factor(row)`, then the run re-sealed."""
    for table in tables:
        scale_times(table, factor)
    reseal(run)


def copy_of_the_fixture(runs: Path, run_id: str, native_factor: float = 1.0) -> Path:
    """FIXTURE_RUN under another id, every native figure's time multiplied by `native_factor`, re-sealed."""
    target = runs / run_id
    shutil.copytree(FIXTURE_RUN, target)
    for table in target.glob("*_native.csv"):
        scale_times(table, lambda _: native_factor)
    manifest = json.loads((target / "manifest.json").read_text(encoding="utf-8"))
    manifest.update(run_id=run_id, started_utc=f"{run_id[:4]}-{run_id[4:6]}-{run_id[6:8]}T00:00:00Z")
    write_manifest(target, manifest)
    reseal(target)
    return target


def precision_line(root: Path, run: Path, topic: str) -> str:
    """The one line of `python -m phpcb precision RUN` on `topic` ("machine speed", "sample spread", ...)."""
    (line,) = [line for line in precision_command.report(root, run).splitlines() if line.startswith(f"{topic}: ")]
    return line


def speed_of(root: Path, run: Path) -> str:
    return precision_line(root, run, "machine speed")


def test_precision_says_how_fast_the_machine_ran_against_its_other_runs_of_the_stack(tmp_path: Path):
    root = project_with(tmp_path, FIXTURE_RUN)
    runs = root / "data" / "runs"
    alone = speed_of(root, runs / FIXTURE_RUN.name)
    assert alone.startswith("machine speed: no other run of ")
    copy_of_the_fixture(runs, "20260102T0000Z-fixture-php8.2")
    copy_of_the_fixture(runs, "20260103T0000Z-fixture-php8.2")
    slowed = copy_of_the_fixture(runs, "20260104T0000Z-fixture-php8.2", native_factor=1.25)
    line = speed_of(root, slowed)
    assert line.startswith("machine speed: native figures at 0.80× the median of 3 other run(s) of ")
    assert line.endswith("it ran at 80% of its usual speed (something else on the host? CPU steal may not show it)")
    line = speed_of(root, runs / FIXTURE_RUN.name)
    assert "at 1.00× the median of 3 other run(s)" in line, "the slowed run is one of three: not their median"
    assert line.endswith("its usual speed (within 5%)")


def test_a_run_of_another_timer_is_no_peer_and_a_run_without_native_figures_says_so(tmp_path: Path):
    root = project_with(tmp_path, FIXTURE_RUN)
    measured = copy_of_the_fixture(root / "data" / "runs", "20260102T0000Z-fixture-php8.2")
    manifest = json.loads((measured / "manifest.json").read_text(encoding="utf-8"))
    write_manifest(measured, {**manifest, "timer": "hrtime"})
    fixture = load_run(root / "data" / "runs" / FIXTURE_RUN.name, SCHEMAS)
    line = speed_of(root, fixture.directory)
    assert line.startswith("machine speed: no other run of "), "a fake clock's figures are set, not measured"
    without = replace(fixture, frames={k: v for k, v in fixture.frames.items() if not k.endswith("_native.csv")})
    assert precision_command.speed_line(without, [], SCHEMAS) == (
        "machine speed: this run measured no native figures to compare (make report leaves them out)"
    )


def test_the_runs_page_gives_each_runs_machine_speed_where_it_has_peers(tmp_path: Path, fixture_run_site):
    root = project_with(tmp_path, FIXTURE_RUN)
    runs = root / "data" / "runs"
    copy_of_the_fixture(runs, "20260102T0000Z-fixture-php8.2")
    copy_of_the_fixture(runs, "20260103T0000Z-fixture-php8.2")
    copy_of_the_fixture(runs, "20260104T0000Z-fixture-php8.2", native_factor=1.25)
    page = site.build(root).pages["runs.md"]
    sections = {part.split("`", 1)[0]: part for part in page.split("\n## `")[1:]}
    says = "native figures (`openssl speed`) against the median of this machine's 3 other runs of the stack: "
    assert says + "it ran at 80% of its usual speed" in sections["20260104T0000Z-fixture-php8.2"]
    assert says + "its usual speed (within 5%)" in sections[FIXTURE_RUN.name]
    alone = fixture_run_site.pages["runs.md"]
    assert "Machine speed" not in alone, "no other run of the machine: nothing to set it against"


def test_a_table_of_exactly_the_native_columns_gives_figures_and_a_time_of_zero_none():
    run = load_run(FIXTURE_RUN, SCHEMAS)
    exact = native_times(run.tables, lambda name: NATIVE_COLUMNS if name.endswith("_native.csv") else ())
    assert exact == native_times(run.tables, lambda name: SCHEMAS.tables[name].columns)
    found = machine_speed({SIGN: 0.0, VERIFY: 0.5}, [{SIGN: 100.0, VERIFY: 1.0}])
    assert found is not None
    assert (found.index, found.figures) == (2.0, 1), "a figure under a nanosecond counts; one of 0 has no ratio"
