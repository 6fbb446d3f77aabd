"""Argon2 cells from one run: statistics per cell, what threads buy, and parameters per latency budget."""

from __future__ import annotations

import math
from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from phpcb.data.loader import Run
from phpcb.data.schema import declared_measure
from phpcb.experiments.argon2.bcrypt import BCRYPT_TABLE, BcryptCost, CostStep, bcrypt_costs, cost_steps
from phpcb.experiments.argon2.picks import BudgetPick, Candidate, pick_within, timing
from phpcb.statistics.spread import UNKNOWN, RunSpread
from phpcb.statistics.stats import MIN_PAIRS, Ratio, Summary, ratio_between, ratio_of_medians, summarize

CSV = "argon2.csv"  # the measurements table (data/schema/tables/argon2.json)

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
    # every sample's CPU time, in the order of wall_ns: one sample's CPU and wall time are one measurement
    cpu_ns: np.ndarray | None = field(default=None, compare=False, repr=False)

    @property
    def cpu_over_wall(self) -> float | None:
        return self.cpu_median_ns / self.wall.median_ns if self.wall and self.cpu_median_ns else None

    @property
    def cpu_over_wall_ratio(self) -> Ratio | None:
        """CPU time ÷ wall time (the ratio of their medians, cpu_over_wall) with its 95% CI from the
        samples, each sample's CPU and wall time paired; too few samples for one: no interval (NaN ends)."""
        if self.cpu_over_wall is None or self.cpu_ns is None or self.wall_ns is None:
            return None
        if min(self.cpu_ns.size, self.wall_ns.size) < MIN_PAIRS:
            return Ratio(self.cpu_over_wall, math.nan, math.nan)
        return ratio_between(self.cpu_ns, self.wall_ns, paired=True)


@dataclass(frozen=True)
class LibraryGap:
    """The same hash through two interfaces: `ratio` is the first's time over the second's."""

    first: Cell
    second: Cell
    ratio: Ratio


@dataclass(frozen=True)
class Argon2Analysis:
    run: Run
    cells: list[Cell]
    # Parameters (memory MiB, threads, time cost) measured besides the grid (PHP's defaults, OWASP's
    # minimum): they are looked up by name, and kept off the grid's axes.
    named: frozenset[tuple[int, int, int]] = frozenset()
    # bcrypt at costs 10 to 13, timed beside the grid (bcrypt.csv); none in older runs.
    bcrypt: list[BcryptCost] = field(default_factory=list)
    # each bcrypt cost's time over the one below it (bcrypt's design doubles it)
    bcrypt_steps: list[CostStep] = field(default_factory=list)
    # The machine's spread between runs that the page's picks are judged with (picks.timing): set by the
    # page context (Argon2.page_context), so that the figures made from this analysis pick as the page does.
    spread: RunSpread = UNKNOWN

    def find(self, interface: str, variant: str, memory_mib: int, threads: int, time_cost: int) -> Cell | None:
        wanted = CellKey(interface, variant, memory_mib * 1024, threads, time_cost)
        return next((c for c in self.cells if c.key == wanted), None)

    @property
    def series(self) -> list[tuple[str, str]]:
        return list(dict.fromkeys((c.key.interface, c.key.variant) for c in self.cells))

    def axis(self, name: str) -> list[int]:
        """The grid's values of one parameter (cells measured only for a named parameter set aside)."""
        return sorted({getattr(c.key, name) for c in self.grid_cells})

    @property
    def grid_cells(self) -> list[Cell]:
        def params(c: Cell) -> tuple[int, int, int]:
            return (c.key.memory_mib, c.key.threads, c.key.time_cost)

        others = [c for c in self.cells if params(c) not in self.named]
        memories, threads, times = ({getattr(c.key, a) for c in others} for a in ("memory_kib", "threads", "time_cost"))
        # A named cell whose parameters all lie on the grid's axes is a grid cell too.
        return [
            c
            for c in self.cells
            if params(c) not in self.named
            or (c.key.memory_kib in memories and c.key.threads in threads and c.key.time_cost in times)
        ]

    @property
    def not_ok(self) -> list[Cell]:
        return [c for c in self.cells if c.status != "ok"]


def cells(rows: list[dict[str, Any]]) -> list[Cell]:
    grouped: dict[CellKey, list[dict[str, Any]]] = defaultdict(list)
    for row in rows:
        grouped[CellKey(*(row[c] for c in ("interface", "variant", "memory_kib", "threads", "time_cost")))].append(row)
    time = declared_measure(CSV).time  # one hash per row: no iterations column
    result = []
    for key, members in grouped.items():
        first = members[0]
        ok = first["status"] == "ok"
        samples = np.asarray([r[time] for r in members], dtype=float)
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
                cpu_ns=np.asarray([r["cpu_ns"] for r in members], dtype=float) if ok else None,
            )
        )
    return result


def candidates(
    cells_: list[Cell], variants: tuple[str, ...], spread: RunSpread = UNKNOWN, interface: str = "password_hash"
) -> list[Candidate[Cell]]:
    """The cells a budget picks from: `interface` (password_hash, or sodium for libsodium's p = 1), a
    recommended variant, timed; oversubscribed thread counts are left out (more threads than cores buy
    nothing here). Each with the time the page prints for it (picks.timing)."""
    return [
        Candidate(c, c.key.label, timing(c.wall, spread))
        for c in cells_
        if c.key.interface == interface and c.key.variant in variants and c.wall is not None and not c.oversubscribed
    ]


def strength(candidate: Candidate[Cell]) -> tuple[float, ...]:
    """The most memory × passes is the strongest; at equal product, more memory (RFC 9106: memory first),
    then the faster (more threads)."""
    key = candidate.option.key
    return (key.memory_kib * key.time_cost, key.memory_kib, -candidate.timing.median_ns)


def memory_per_hash(run: Run) -> bool:
    """Whether the run's argon2.csv max_rss_kib is the memory one hash takes: its manifest's argon2
    verification says so (memory_per_hash, from the runner of issue 46 on). Before, it was the cell
    process's running maximum, which starts at the size of the runner that forked the cell."""
    entry = (run.manifest.get("experiments") or {}).get("argon2") or {}
    return bool((entry.get("verification") or {}).get("memory_per_hash"))


def analyse(run: Run, named: frozenset[tuple[int, int, int]] = frozenset()) -> Argon2Analysis:
    bcrypt = bcrypt_costs(run.tables.get(BCRYPT_TABLE, []))
    return Argon2Analysis(run, cells(run.tables.get(CSV, [])), named, bcrypt, cost_steps(bcrypt))


def gap(first: Cell | None, second: Cell | None) -> LibraryGap | None:
    if first is None or second is None or first.wall_ns is None or second.wall_ns is None:
        return None
    return LibraryGap(first, second, ratio_of_medians(first.wall_ns, second.wall_ns))


def sodium_gap(analysis: Argon2Analysis, memory_mib: int, time_cost: int) -> LibraryGap | None:
    """password_hash over sodium_crypto_pwhash, Argon2id, one thread (sodium's only count)."""
    return gap(
        analysis.find("password_hash", "argon2id", memory_mib, 1, time_cost),
        analysis.find("sodium", "argon2id", memory_mib, 1, time_cost),
    )


def reference_cli_gaps(analysis: Argon2Analysis) -> list[LibraryGap]:
    """password_hash over the reference argon2 CLI, Argon2i on one thread, at every size both measured:
    the same library code (libargon2) in and out of PHP."""
    found = []
    for cell in analysis.cells:
        k = cell.key
        if (k.interface, k.variant, k.threads) == ("password_hash", "argon2i", 1):
            pair = gap(cell, analysis.find("cli", "argon2i", k.memory_mib, 1, k.time_cost))
            if pair is not None:
                found.append(pair)
    return sorted(found, key=lambda g: (g.first.key.time_cost, g.first.key.memory_kib))


def budget_choices(
    analysis: Argon2Analysis, variants: tuple[str, ...], spread: RunSpread = UNKNOWN, interface: str = "password_hash"
) -> list[BudgetPick[Cell]]:
    """Per latency budget, the one cell of the policy's recommended variants through `interface` that the
    page names (picks.pick_within: the strongest whose interval lies within the budget)."""
    found = candidates(analysis.cells, variants, spread, interface)
    return [pick_within(found, budget, strength) for budget in BUDGETS_MS]
