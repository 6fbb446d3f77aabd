"""bcrypt beside Argon2 (bcrypt.csv): `password_hash()` with PASSWORD_BCRYPT, PHP's PASSWORD_DEFAULT, at
costs 10 to 13, one hash per sample as in an Argon2 cell, timed in the same run so that the page can set
it against the same latency budgets: per budget, the highest cost that fits (picks.py)."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from phpcb.data.schema import declared_measure
from phpcb.statistics.stats import Ratio, Summary, ratio_of_medians, summarize

BCRYPT_TABLE = "bcrypt.csv"


@dataclass(frozen=True)
class BcryptCost:
    cost: int
    wall: Summary
    cpu_median_ns: float
    # every sample's wall time, for the ratio between costs (not part of a cost's identity)
    wall_ns: np.ndarray = field(compare=False, repr=False)

    @property
    def label(self) -> str:
        return f"cost {self.cost}"


@dataclass(frozen=True)
class CostStep:
    """One step of cost against the one below: `ratio` is the higher cost's time over the lower's (bcrypt's
    design doubles it)."""

    lower: BcryptCost
    higher: BcryptCost
    ratio: Ratio


def bcrypt_costs(rows: Sequence[Mapping[str, Any]]) -> list[BcryptCost]:
    """Each cost's hashes, lowest cost first."""
    walls: dict[int, list[float]] = defaultdict(list)
    cpus: dict[int, list[float]] = defaultdict(list)
    wall = declared_measure(BCRYPT_TABLE).time  # one hash per row: no iterations column
    for row in rows:
        walls[int(row["cost"])].append(float(row[wall]))
        cpus[int(row["cost"])].append(float(row["cpu_ns"]))
    found = []
    for cost in sorted(walls):
        samples = np.asarray(walls[cost], dtype=float)
        found.append(BcryptCost(cost, summarize(samples), float(np.median(cpus[cost])), samples))
    return found


def cost_steps(costs: list[BcryptCost]) -> list[CostStep]:
    """Each measured cost against the one below it, where both were measured."""
    by_cost = {c.cost: c for c in costs}
    return [
        CostStep(by_cost[c.cost - 1], c, ratio_of_medians(c.wall_ns, by_cost[c.cost - 1].wall_ns))
        for c in costs
        if c.cost - 1 in by_cost
    ]
