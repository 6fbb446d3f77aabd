"""Argon2 cells from one run: statistics per cell, what threads buy, and parameters per latency budget."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..loader import Run
from ..stats import Summary, summarize

BUDGETS_MS = (100, 250, 500, 1000)


@dataclass(frozen=True)
class CellKey:
    interface: str
    variant: str
    memory_kib: int
    threads: int
    time_cost: int

    @property
    def memory_mib(self) -> int:
        return self.memory_kib // 1024

    @property
    def label(self) -> str:
        return f"m={self.memory_mib} MiB, t={self.time_cost}, p={self.threads}"


@dataclass(frozen=True)
class Cell:
    key: CellKey
    status: str
    detail: str
    oversubscribed: bool
    wall: Summary | None
    cpu_median_ns: float | None
    max_rss_kib: int
    verified: bool
    # every sample's wall time, for ratios between cells (not part of a cell's identity)
    wall_ns: np.ndarray | None = field(default=None, compare=False, repr=False)

    @property
    def cpu_over_wall(self) -> float | None:
        return self.cpu_median_ns / self.wall.median_ns if self.wall and self.cpu_median_ns else None


@dataclass(frozen=True)
class BudgetChoice:
    budget_ms: int
    cell: Cell | None


@dataclass(frozen=True)
class Argon2Analysis:
    run: Run
    cells: list[Cell]

    def find(self, interface: str, variant: str, memory_mib: int, threads: int, time_cost: int) -> Cell | None:
        wanted = CellKey(interface, variant, memory_mib * 1024, threads, time_cost)
        return next((c for c in self.cells if c.key == wanted), None)

    @property
    def series(self) -> list[tuple[str, str]]:
        return list(dict.fromkeys((c.key.interface, c.key.variant) for c in self.cells))

    def axis(self, name: str) -> list[int]:
        return sorted({getattr(c.key, name) for c in self.cells})

    @property
    def not_ok(self) -> list[Cell]:
        return [c for c in self.cells if c.status != "ok"]


def cells(rows: list[dict[str, Any]]) -> list[Cell]:
    grouped: dict[CellKey, list[dict[str, Any]]] = defaultdict(list)
    for row in rows:
        grouped[CellKey(*(row[c] for c in ("interface", "variant", "memory_kib", "threads", "time_cost")))].append(row)
    result = []
    for key, members in grouped.items():
        first = members[0]
        ok = first["status"] == "ok"
        samples = np.asarray([r["wall_ns"] for r in members], dtype=float)
        wall = summarize(samples) if ok else None
        cpu = float(np.median([r["cpu_ns"] for r in members])) if ok else None
        result.append(
            Cell(
                key=key,
                status=str(first["status"]),
                detail=str(first["detail"]),
                oversubscribed=bool(first["oversubscribed"]),
                wall=wall,
                cpu_median_ns=cpu,
                max_rss_kib=max(int(r["max_rss_kib"]) for r in members),
                verified=all(bool(r["verified"]) for r in members),
                wall_ns=samples if ok else None,
            )
        )
    return result


def strongest_within(cells_: list[Cell], budget_ms: int, variants: tuple[str, ...]) -> Cell | None:
    """The password_hash cell of a recommended variant with the most memory × passes whose median fits the budget.

    Oversubscribed thread counts are left out: more threads than cores buy nothing here.
    """
    fitting = [
        c
        for c in cells_
        if c.key.interface == "password_hash"
        and c.key.variant in variants
        and c.wall is not None
        and not c.oversubscribed
        and c.wall.median_ns <= budget_ms * 1e6
    ]
    return max(
        fitting,
        key=lambda c: (c.key.memory_kib * c.key.time_cost, c.key.memory_kib, -c.wall.median_ns if c.wall else 0),
        default=None,
    )


def analyse(run: Run) -> Argon2Analysis:
    return Argon2Analysis(run, cells(run.tables.get("argon2.csv", [])))


def budget_choices(analysis: Argon2Analysis, variants: tuple[str, ...]) -> list[BudgetChoice]:
    """Per latency budget, the strongest cell of the policy's recommended variants."""
    return [BudgetChoice(budget, strongest_within(analysis.cells, budget, variants)) for budget in BUDGETS_MS]
