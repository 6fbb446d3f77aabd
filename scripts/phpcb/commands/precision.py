"""`python -m phpcb precision RUN`: how precise and how quiet one run's measurement was, per experiment:
cases, how many reached the profile's target (the runner's record, and the build's count from the
samples), the median and 90th percentile of the cases' CI half-widths, outliers, CPU steal, and the
time it took; then the experiments' total time and the precision reached over all of them (what `make
report` prints at its end), the AEAD harness overhead, how fast the machine ran against its other runs
of the same stack under data/runs/ (statistics/machine_speed.py), how widely its samples spread against
theirs (statistics/sample_spread.py), and whether its speed shifted while it ran (statistics/speed_shifts.py,
from the run alone). A few lines for a terminal or an issue
comment."""

from __future__ import annotations

import argparse
from pathlib import Path

import numpy as np

from phpcb.data.loader import Run, load_run, read_manifest, run_directories
from phpcb.data.machines import machine_name
from phpcb.data.sampling import measured_tables
from phpcb.data.schema import Schemas, load_schemas
from phpcb.data.stacks import stack_of
from phpcb.experiments.aead.per_call import harness_overhead
from phpcb.presentation import wording
from phpcb.presentation.precision import precision
from phpcb.presentation.wording import CI
from phpcb.statistics import stats
from phpcb.statistics.machine_speed import native_times, of_runs, peer_key
from phpcb.statistics.sample_spread import of_runs as of_spreads
from phpcb.statistics.sample_spread import spread_key
from phpcb.statistics.speed_shifts import of_run as speed_shifts_of


def _share(value: float) -> str:
    return f"{value:.2%}" if np.isfinite(value) else "inf"


def report(root: Path, run_dir: Path) -> str:
    schemas = load_schemas(root / "data" / "schema")
    run = load_run(run_dir.resolve(), schemas)
    lines = [
        f"{run.run_id} ({run.manifest['profile']} profile)",
        "experiment   cases  within target (runner/build)  half-width median  p90  outliers  steal  others  duration",
    ]
    total = 0.0
    cases = within = 0
    for name, entry in run.manifest["experiments"].items():
        if entry["status"] not in ("ok", "partial"):
            continue
        found = precision(run, name, schemas)
        widths = np.array(
            [stats.relative_half_width(v) for _, cases in measured_tables(run, name, schemas) for v in cases.values()]
        )
        sampling = found.sampling
        target = sampling.target if sampling else float("nan")
        built = found.reached.within if found.reached else 0
        recorded = f"{sampling.within_target}/{built}" if sampling else f"-/{built}"
        share = found.reached.share if found.reached else 0.0
        cases += found.reached.cases if found.reached else 0
        within += built
        steal = found.load.steal_share if found.load and found.load.steal_share is not None else float("nan")
        others = found.load.others_share if found.load and found.load.others_share is not None else float("nan")
        total += float(entry["duration_s"])
        # "nearest": a case without a finite CI (too few samples) has an infinite half-width.
        median, p90 = (_share(float(np.percentile(widths, q, method="nearest"))) for q in (50, 90))
        lines.append(
            f"{name:<12} {widths.size:>5}  {recorded:>9} = {share:6.1%} of ±{target:.0%}"
            f"   {median:>8}  {p90:>6}  {found.outliers.mild:>6}  {steal:6.2%}  {others:6.1%}"
            f"  {entry['duration_s']:7.1f} s"
        )
    lines.append(f"total duration of the experiments: {total / 60:.1f} min")
    if cases:
        lines.append(f"precision reached: {within:,} of {cases:,} cases ({within / cases:.1%}) within their target")
    for overhead in harness_overhead(run):
        r = overhead.ratio
        lines.append(
            f"harness overhead, {overhead.algorithm} {overhead.payload_bytes} B: harness/bare {r.value:.3f}"
            f" ({CI} {r.low:.3f}-{r.high:.3f}){' paired' if overhead.paired else ''}"
        )
    peers = _peers(root, run, schemas)
    lines.append(speed_line(run, peers, schemas))
    lines.append(spread_line(run, peers, schemas))
    lines.append(shifts_line(run, schemas))
    return "\n".join(lines)


def _peers(root: Path, run: Run, schemas: Schemas) -> list[Run]:
    """The other runs under `root`'s data/runs/ that share the run's peer_key, only those loaded."""
    same = peer_key(run.manifest)
    found = []
    for directory in run_directories(root / "data" / "runs"):
        if directory.name != run.run_id and peer_key(read_manifest(directory, schemas)) == same:
            found.append(load_run(directory, schemas))
    return found


def _machine_and_stack(run: Run) -> str:
    """What the peers of both lines share, named: 'amd-epyc-zen4-2c-1fdf65 · stack host'."""
    return f"{machine_name(run.manifest)} · stack {stack_of(run.manifest).name}"


def speed_line(run: Run, peers: list[Run], schemas: Schemas) -> str:
    def columns(name: str) -> tuple[str, ...]:
        return schemas.tables[name].columns

    if not native_times(run.tables, columns):
        return "machine speed: this run measured no native figures to compare (make report leaves them out)"
    speed = of_runs([run, *peers], columns)[run.run_id]
    where = _machine_and_stack(run)
    if speed is None:
        return f"machine speed: no other run of {where} measured its native figures to compare with"
    return (
        f"machine speed: native figures at {speed.index:.2f}× the median of {speed.peers} other run(s) of {where}"
        f" ({speed.figures} figures): {wording.machine_speed(speed)}"
    )


def spread_line(run: Run, peers: list[Run], schemas: Schemas) -> str:
    same = spread_key(run.manifest)
    alike = [peer for peer in peers if spread_key(peer.manifest) == same]
    spread = of_spreads([run, *alike], schemas)[run.run_id]
    where = f"{_machine_and_stack(run)} · {run.manifest['profile']} profile"
    if spread is None:
        return f"sample spread: no other run of {where} to compare with"
    return (
        f"sample spread: cases' interquartile range at {spread.index:.2f}× the median of {spread.peers} other"
        f" run(s) of {where} ({spread.cases:,} cases): {wording.sample_spread(spread)}"
    )


def shifts_line(run: Run, schemas: Schemas) -> str:
    shifts = speed_shifts_of(run, schemas)
    if shifts is None:
        return "speed shifts: no group of cases sampled in rotation long enough to tell"
    return f"speed shifts: {wording.speed_shifts(shifts)}"


def arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("run", type=Path)


def run(args: argparse.Namespace) -> int:
    print(report(args.root, args.run))
    return 0
