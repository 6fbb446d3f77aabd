"""How fast the machine ran during one run, against its other runs on the same stack: from the native
figures every run measures beside PHP (`openssl speed`, statistics/rounds.py), which no change of this
project's code moves.

A virtual machine's host can slow every core at once, through a neighbour on the same physical cores or
memory, without any CPU steal showing in the guest (/proc/stat). Of the 55 quick runs of the development
pool's Zen 4 and Zen 5 machines (2026-11-29/30), the 8 whose native figures ran more than 5 % below their
machine × stack's median run reached ±3 % in 43-87 % of their cases; of the other 47, 42 reached 89 % or
more. This says so per run, so that a run's low precision or slow numbers can be read as the machine's
phase, not the code's; it changes no figure.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from phpcb.data.loader import Run
from phpcb.data.machines import machine_name
from phpcb.data.stacks import stack_of
from phpcb.statistics.rounds import NATIVE_TIMING, NativeKey, native_series

# What a native rounds table has (data/schema/shared/native-rounds.json): a run's other tables have not.
NATIVE_COLUMNS = frozenset(
    {"primitive", "operation", "block_bytes", "round", NATIVE_TIMING.time, NATIVE_TIMING.iterations}
)
# Beyond this share from its median run, the machine is said to have run slower (or faster) than usual:
# no run above that reached ±3 % in 89 % of its cases or more was beyond it.
USUAL = 0.05

Figure = tuple[str, NativeKey]  # a native table's name and what it measured


@dataclass(frozen=True)
class MachineSpeed:
    """The geometric mean, over the native figures this run shares with its peers, of the peers' median
    time over this run's time: 1.0 as fast as its median run, 0.84 took 1/0.84 of its usual time."""

    index: float
    figures: int  # the run's native figures some peer measured too
    peers: int  # the peers that measured at least one of them

    @property
    def usual(self) -> bool:
        return abs(self.index - 1) <= USUAL


def peer_key(manifest: Mapping[str, Any]) -> tuple[str, str, Any]:
    """What runs compared with one another share: the machine, the stack (its OpenSSL gives the native
    figures) and the timer (a fake clock's figures are set, not measured)."""
    return machine_name(manifest), stack_of(dict(manifest)).name, manifest.get("timer")


def native_times(
    tables: Mapping[str, Sequence[Mapping[str, Any]]], columns: Callable[[str], Iterable[str]]
) -> dict[Figure, float]:
    """Each native figure of a run's tables (those whose `columns(name)` are a native rounds table's): its
    median time per operation over its rounds, in ns."""
    found: dict[Figure, float] = {}
    for name in tables:
        if not set(columns(name)) >= NATIVE_COLUMNS:
            continue  # before its rows are asked for: a run's sample tables are most of its rows
        for key, series in native_series(tables[name]).items():
            found[(name, key)] = series.summary.median_ns
    return found


def of_runs(runs: Sequence[Run], columns: Callable[[str], Iterable[str]]) -> dict[str, MachineSpeed | None]:
    """Each run's speed against the other runs among `runs` that share its peer_key; None for a run with
    no native figure or no peer that measured one."""
    times = {run.run_id: native_times(run.tables, columns) for run in runs}
    groups: dict[tuple[str, str, Any], list[str]] = {}
    for run in runs:
        groups.setdefault(peer_key(run.manifest), []).append(run.run_id)
    return {
        run.run_id: machine_speed(
            times[run.run_id], [times[peer] for peer in groups[peer_key(run.manifest)] if peer != run.run_id]
        )
        for run in runs
    }


def machine_speed(run: Mapping[Figure, float], peers: Sequence[Mapping[Figure, float]]) -> MachineSpeed | None:
    """`run`'s speed against the median of `peers` (the same machine's other runs, same stack) per figure;
    None where no figure of the run was measured by a peer."""
    logs = []
    for figure, time_ns in run.items():
        others = [peer[figure] for peer in peers if figure in peer]
        if others and time_ns > 0:
            logs.append(math.log(float(np.median(others)) / time_ns))
    if not logs:
        return None
    sharing = sum(1 for peer in peers if any(figure in peer for figure in run))
    return MachineSpeed(math.exp(float(np.mean(logs))), len(logs), sharing)
