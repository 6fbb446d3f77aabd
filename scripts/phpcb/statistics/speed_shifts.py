"""Whether the machine changed speed while a run measured, read from that run alone.

Cases sampled in rotation (data/sampling.py's Pairing) take their sample r in the same round, close together
in time. A round's common speed is the median, over the group's cases, of each case's sample r over that
case's median: 1.0 in every round on a steady machine, whatever the cases cost. On a host whose neighbour
takes the core and gives it back, whole rounds move together: on the pool's Zen 3 machine, 2026-12-01, the
EC signing group's rounds ran at about 1.2× their median for 33 rounds and then at 0.62×. A case's samples then
mix two speeds, its CI stays wide however many it takes, and fewer cases reach their target; ratios the
pages pair round by round are largely spared, since both sides of a pair share the round (a round of many
cases can straddle a change).

Unlike the sample spread (statistics/sample_spread.py), this needs no other run of the machine: every run of
that Zen 3 machine was taken in such a phase, so each was as noisy as its peers. It changes no figure.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from phpcb.data.loader import Run
from phpcb.data.sampling import Samples, Sampling, measured_tables
from phpcb.data.schema import Schemas
from phpcb.statistics.stats import percentiles

# A round's common speed is a median over at least this many of its cases. Over 3, the rounds that only a
# group's slowest cases reach (ML-DSA signing, random in time by design) moved as if the host had.
MINIMUM_CASES = 4
# A group's rounds say how its speed moved once it has this many of them (the quick profile's least samples).
MINIMUM_ROUNDS = 7
# A group ran at two speeds when its rounds' 90th-percentile speed factor is at least SHIFTED times their
# 10th, and at least TOGETHER times what its cases' own noise gives (group_move): a group of cases whose time
# is random by design (ML-DSA signing) moves its rounds' medians with no help from the host.
SHIFTED = 1.3
TOGETHER = 1.2
SHUFFLES = 3
SEED = 20261201
# A run in which at least this share of its groups ran at two speeds was measured in shifting phases. Of the
# 77 quick runs under data/runs/ on 2026-12-01 (Intel Xeon, Zen 3, 4 and 5), the 28 at or above it reached ±3 %
# in 43-97 % of their cases (20 of them below 90 %); of the 49 below it, 48 reached 93.8-99.5 % and one 82.9 %.
SHIFTING = 0.05


@dataclass(frozen=True)
class GroupMove:
    """One group's rounds: how far their common speed moved, and how far the cases' own noise moves it."""

    move: float  # the rounds' factors, 90th over 10th percentile
    floor: float  # the same with the rounds' factors taken out and each case's samples shuffled

    @property
    def shifted(self) -> bool:
        return self.move >= SHIFTED and self.move >= TOGETHER * self.floor


@dataclass(frozen=True)
class SpeedShifts:
    """How many of a run's groups sampled in rotation ran at two speeds, and the widest such move."""

    groups: int  # groups of at least MINIMUM_CASES cases and MINIMUM_ROUNDS such rounds
    shifted: int  # of them, those whose rounds moved together (GroupMove.shifted)
    widest: float  # the largest move of a shifted group; 1.0 where none shifted

    @property
    def steady(self) -> bool:
        return self.shifted < SHIFTING * self.groups


def _grid(cases: Sequence[np.ndarray]) -> np.ndarray:
    """The group's per-operation times, one row per case in sample order, NaN past a case's last sample (a
    group has cases: group_move asks for MINIMUM_CASES first)."""
    rounds = max(len(times) for times in cases)
    grid = np.full((len(cases), rounds), np.nan)
    for row, times in enumerate(cases):
        grid[row, : len(times)] = times
    return grid


def _nan_median(values: np.ndarray, axis: int) -> np.ndarray:
    """np.nanmedian's result, from one sort (NaN sorts last): np.nanmedian took most of a build's time here.
    An all-NaN slice counts 0 values and takes its first, a NaN: its median is NaN, as np.nanmedian's."""
    ordered = np.sort(values, axis=axis)
    counts = np.count_nonzero(~np.isnan(ordered), axis=axis, keepdims=True)
    low = np.take_along_axis(ordered, np.maximum((counts - 1) // 2, 0), axis=axis)
    high = np.take_along_axis(ordered, np.maximum(counts // 2, 0), axis=axis)
    return np.squeeze((low + high) / 2, axis=axis)


def _relative(grid: np.ndarray) -> np.ndarray:
    """Each sample over its case's median, only in the rounds at least MINIMUM_CASES cases reached (a group's
    cases stop at different rounds); NaN past a case's last sample."""
    with np.errstate(invalid="ignore", divide="ignore"):
        relative = grid / _nan_median(grid, axis=1)[:, np.newaxis]
    relative[~np.isfinite(relative)] = np.nan
    return relative[:, np.count_nonzero(~np.isnan(relative), axis=0) >= MINIMUM_CASES]


def round_factors(grid: np.ndarray) -> np.ndarray:
    """Each round's common speed factor: the median over the cases (the rows of `grid`, one per case in
    sample order, NaN past its last sample) of their sample r over their median."""
    return _nan_median(_relative(grid), axis=0)


def _move(factors: np.ndarray) -> float:
    low, high = percentiles(factors, (10, 90))
    return high / low if low > 0 else math.inf


def _shuffled(relative: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Each case's samples in another order, each case its own (NaN padding stays last, so every round keeps
    its count of cases)."""
    order = np.argsort(np.where(np.isnan(relative), np.inf, rng.random(relative.shape)), axis=1)
    return np.take_along_axis(relative, order, axis=1)


def group_move(cases: Sequence[np.ndarray]) -> GroupMove | None:
    """How far a group's common speed moved over its rounds (their factors' 90th over 10th percentile), and
    how far the cases' own noise moves it: the same move, of the samples with each round's factor taken out
    and then shuffled within each case (the median of SHUFFLES orders, from a fixed seed). Where whole
    rounds moved, taking their factors out leaves little to shuffle; where each case's time is noisy on its
    own, it leaves that noise, which moves the shuffled rounds as far. None for a group too small to say
    (MINIMUM_CASES, MINIMUM_ROUNDS)."""
    if len(cases) < MINIMUM_CASES:
        return None
    relative = _relative(_grid(cases))
    if relative.shape[1] < MINIMUM_ROUNDS:
        return None
    factors = _nan_median(relative, axis=0)
    residual = relative / factors[np.newaxis, :]
    rng = np.random.default_rng(SEED)
    floor = statistics.median(_move(_nan_median(_shuffled(residual, rng), axis=0)) for _ in range(SHUFFLES))
    return GroupMove(_move(factors), floor)


def rotation_groups(samples: Samples, key: Sequence[str], columns: Sequence[str]) -> list[list[np.ndarray]]:
    """A table's cases as the runner sampled them in rotation: those that agree on `columns` (the manifest's
    interleaved_by for the table), each case's times in sample order."""
    positions = [list(key).index(column) for column in columns]
    groups: dict[tuple[Any, ...], list[np.ndarray]] = {}
    for case, times in samples.items():
        groups.setdefault(tuple(case[i] for i in positions), []).append(times)
    return list(groups.values())


def speed_shifts(moves: Iterable[GroupMove | None]) -> SpeedShifts | None:
    """The run's tally of its groups' moves (group_move); None when no group could say."""
    found = [move for move in moves if move is not None]
    if not found:
        return None
    shifted = [move.move for move in found if move.shifted]
    return SpeedShifts(len(found), len(shifted), max(shifted, default=1.0))


def of_run(run: Run, schemas: Schemas) -> SpeedShifts | None:
    """speed_shifts over every table the run sampled in rotation; None for a run that sampled none so
    (before schema version 5) or whose groups are all too small."""
    moves = []
    for name, entry in run.manifest["experiments"].items():
        sampling = Sampling.of(entry)
        if sampling is None or not sampling.interleaved_by:
            continue
        for table, samples in measured_tables(run, name, schemas):
            columns = sampling.interleaved_by.get(table)
            if columns:
                key = schemas.tables[table].key
                moves.extend(group_move(cases) for cases in rotation_groups(samples, key, columns))
    return speed_shifts(moves)


def of_runs(runs: Sequence[Run], schemas: Schemas) -> Mapping[str, SpeedShifts | None]:
    return {run.run_id: of_run(run, schemas) for run in runs}
