"""`make bench-fidelity`: PHP's AES-256-GCM and AES-256-CCM encryption at 16 KiB against `openssl speed`,
from directories written by runners/fidelity.php (or runs of the aead experiment). The goal: each
ratio's 95 % CI within ±5 % of its value, and the CIs of consecutive runs overlapping (the figure is
stable, not only precise)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from phpcb.data.schema import load_schemas
from phpcb.data.table_reader import read_table
from phpcb.errors import DataError
from phpcb.experiments.aead import native
from phpcb.presentation.formatting import percent, size
from phpcb.presentation.wording import CI, share
from phpcb.statistics.rounds import VsNative
from phpcb.statistics.thresholds import HALF_WIDTH_GOAL

CIPHERS = ("aes-256-gcm", "aes-256-ccm")


@dataclass(frozen=True)
class FidelityCheck:
    text: str
    met: bool


def half_width(comparison: VsNative) -> float:
    """The CI's larger distance from the value, relative to it."""
    fraction = comparison.fraction
    return max(fraction.high / fraction.value - 1, 1 - fraction.low / fraction.value)


def read_directory(root: Path, directory: Path) -> list[VsNative]:
    schemas = load_schemas(root / "data" / "schema")
    tables = {}
    for name in (native.ROUNDS_CSV, native.NATIVE_CSV):
        path = directory / name
        if not path.is_file():
            raise DataError(path, "missing: expected the output of php runners/fidelity.php --out DIR")
        tables[name] = read_table(path, schemas.tables[name]).to_pylist()
    return native.from_tables(tables[native.ROUNDS_CSV], tables[native.NATIVE_CSV])


def check(root: Path, directories: list[Path]) -> FidelityCheck:
    runs = [(directory, {c.what: c for c in read_directory(root, directory)}) for directory in directories]
    lines = [
        "PHP's encryption speed as a fraction of openssl speed's, interleaved rounds; "
        f"goal: {CI} within ±{percent(HALF_WIDTH_GOAL)}, and the CIs of the {len(runs)} runs overlapping"
    ]
    met = True
    for index, (directory, found) in enumerate(runs, start=1):
        lines.append(f"run {index}: {directory}")
        for cipher in CIPHERS:
            comparison = found.get(cipher)
            if comparison is None:
                lines.append(f"  {cipher:<12} not measured")
                met = False
                continue
            width = half_width(comparison)
            ok = width <= HALF_WIDTH_GOAL
            met = met and ok
            lines.append(
                f"  {cipher:<12} {size(comparison.native.block_bytes)}: {share(comparison.fraction)}, "
                f"CI ±{percent(width)} over {comparison.rounds} rounds"
                f"  {'ok' if ok else 'TOO WIDE'}"
            )
    for cipher in CIPHERS:
        intervals = [found[cipher].fraction for _, found in runs if cipher in found]
        if len(intervals) < len(runs):
            continue
        low, high = max(i.low for i in intervals), min(i.high for i in intervals)
        overlap = low <= high
        met = met and overlap
        shared = f"all within {percent(low)}–{percent(high)}" if overlap else "two of them do not overlap"
        lines.append(f"{cipher}: the {len(intervals)} CIs {'overlap' if overlap else 'DO NOT overlap'} ({shared})")
    busy = "goal NOT met (a busy machine widens and shifts the CIs: measure on an idle one)"
    lines.append("goal met" if met else busy)
    return FidelityCheck("\n".join(lines), met)
