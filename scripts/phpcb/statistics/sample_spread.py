"""How widely one run's samples spread, against the same machine's other runs of the stack and profile.

A host's neighbour can spread a run's samples (some at full speed, some well below it) without moving
their median much, and so without showing in the native figures' speed (statistics/machine_speed.py):
on the pool's Zen 3 host, 2026-12-01, the same experiments reached ±3 % in 92 % of their cases and, 40
minutes later, in 64 %. A case's spread here is its samples' interquartile range over their median, which
the number of samples does not move (its CI's half-width shrinks with more of them); a run's spread index
is the geometric mean, over the cases it shares with its peers, of its spread over the median of theirs.
It changes no figure: it says why a run reached less precision than its machine usually does.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from phpcb.data.loader import Run
from phpcb.data.sampling import measured_tables
from phpcb.data.schema import Schemas
from phpcb.statistics.machine_speed import peer_key
from phpcb.statistics.stats import quartiles

# A case with fewer samples has no quartiles worth comparing (the quick profile's least is 7).
MINIMUM_SAMPLES = 7
# Beyond this many times its peers' median spread (or below its inverse), a run's samples are said to have
# spread more (or less) than usual. Of the 62 quick runs of the pool's Zen 4 and Zen 5 machines
# (2026-11-26/30), the 9 above it reached ±3 % in 43-86 % of their cases; 49 of the other 53, in 89 % or more.
USUAL = 1.5

Case = tuple[str, Any]  # a timing table's name and a case's key in it


@dataclass(frozen=True)
class SampleSpread:
    """1.0: the run's samples spread as widely as its peers' median run's; 2.0: twice as widely."""

    index: float
    cases: int  # the run's cases some peer measured too
    peers: int  # the peers that measured at least one of them

    @property
    def usual(self) -> bool:
        return 1 / USUAL <= self.index <= USUAL


def spread_key(manifest: Mapping[str, Any]) -> tuple[Any, ...]:
    """What runs whose spreads compare share: machine, stack and timer (peer_key), and the profile, which
    sets how many operations a sample times."""
    return (*peer_key(manifest), manifest.get("profile"))


def case_spreads(tables: Iterable[tuple[str, Mapping[Any, Sequence[float]]]]) -> dict[Case, float]:
    """Each case's interquartile range over its median, from its per-operation times (data/sampling.py's
    measured_tables), for cases of at least MINIMUM_SAMPLES samples and a positive median."""
    found: dict[Case, float] = {}
    for table, cases in tables:
        for key, values in cases.items():
            times = np.asarray(values, dtype=float)
            if times.size < MINIMUM_SAMPLES:
                continue
            low, median, high = quartiles(times)
            if median > 0:
                found[(table, key)] = float((high - low) / median)
    return found


def sample_spread(run: Mapping[Case, float], peers: Sequence[Mapping[Case, float]]) -> SampleSpread | None:
    """`run`'s spread against the median of `peers` per case; None where no peer shares a case with a
    spread above zero on both sides (a log ratio needs them)."""
    logs = []
    for case, spread in run.items():
        others = [peer[case] for peer in peers if case in peer]
        # The standard library's median: numpy's for a dozen numbers cost most of a build's share here.
        usual = statistics.median(others) if others else 0.0
        if spread > 0 and usual > 0:
            logs.append(math.log(spread / usual))
    if not logs:
        return None
    sharing = sum(1 for peer in peers if any(case in peer for case in run))
    return SampleSpread(math.exp(float(np.mean(logs))), len(logs), sharing)


def run_spreads(run: Run, schemas: Schemas) -> dict[Case, float]:
    """case_spreads of every timing table of every experiment the run has."""
    return case_spreads(table for name in run.manifest["experiments"] for table in measured_tables(run, name, schemas))


def of_runs(runs: Sequence[Run], schemas: Schemas) -> dict[str, SampleSpread | None]:
    """Each run's spread against the other runs among `runs` that share its spread_key; None for a run
    with no such peer, whose cases are then not read at all (most of a build's cost here)."""
    groups: dict[tuple[Any, ...], list[Run]] = {}
    for run in runs:
        groups.setdefault(spread_key(run.manifest), []).append(run)
    found: dict[str, SampleSpread | None] = {run.run_id: None for run in runs}
    for members in groups.values():
        if len(members) < 2:
            continue
        spreads = {run.run_id: run_spreads(run, schemas) for run in members}
        for run in members:
            peers = [spreads[peer.run_id] for peer in members if peer.run_id != run.run_id]
            found[run.run_id] = sample_spread(spreads[run.run_id], peers)
    return found
