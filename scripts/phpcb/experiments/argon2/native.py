"""PHP's Argon2 (password_hash, sodium_crypto_pwhash) against the reference `argon2` CLI at equal
parameters, in interleaved rounds (argon2_rounds.csv): wall time per hash, paired by round."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from phpcb.data.loader import Run
from phpcb.data.schema import declared_measure
from phpcb.statistics.rounds import Breakdown, NativeKey, VsNative, series_by_case, versus

ROUNDS_CSV = "argon2_rounds.csv"
CLI = "cli"


@dataclass(frozen=True)
class Parameters:
    memory_kib: int
    time_cost: int
    threads: int


@dataclass(frozen=True)
class VsCli:
    """Per variant, each PHP interface against the CLI, and every interface's median CPU time."""

    parameters: Parameters | None
    comparisons: list[Breakdown]
    cpu_ns: dict[tuple[str, str], float]  # (interface, variant) -> median CPU time per hash


def analyse(run: Run) -> VsCli:
    rows = run.tables.get(ROUNDS_CSV, [])
    if not rows:
        return VsCli(None, [], {})
    first = rows[0]
    parameters = Parameters(int(first["memory_kib"]), int(first["time_cost"]), int(first["threads"]))
    wall = series_by_case(rows, lambda r: (str(r["interface"]), str(r["variant"])), declared_measure(ROUNDS_CSV))
    cpu: dict[tuple[str, str], list[float]] = {}
    for row in rows:
        cpu.setdefault((str(row["interface"]), str(row["variant"])), []).append(float(row["cpu_ns"]))
    comparisons = []
    for (interface, variant), series in wall.items():
        cli = wall.get((CLI, variant))
        ratio = versus(series, cli) if interface != CLI and cli is not None else None
        if cli is None or ratio is None:
            continue
        comparison = VsNative(f"{interface} {variant}", NativeKey("argon2-cli", variant, 0), series, cli, ratio)
        comparisons.append(Breakdown(comparison, None))
    return VsCli(parameters, comparisons, {key: float(np.median(values)) for key, values in cpu.items()})
