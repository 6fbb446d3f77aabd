"""PHP's AES-CBC and Blowfish against `openssl speed -evp` in interleaved rounds (symmetric_rounds.csv,
symmetric_native.csv), with PHP's time for the smallest payload (seed 001's 3-byte string) as one
call's fixed cost."""

from __future__ import annotations

from phpcb.data.loader import Run
from phpcb.data.schema import declared_measure
from phpcb.experiments.symmetric.analysis import SymCase
from phpcb.statistics.rounds import Breakdown, NativeKey, compare_rounds

ROUNDS_CSV = "symmetric_rounds.csv"
NATIVE_CSV = "symmetric_native.csv"


def breakdowns(run: Run, cases: list[SymCase]) -> list[Breakdown]:
    comparisons = compare_rounds(
        run.tables.get(ROUNDS_CSV, []),
        declared_measure(ROUNDS_CSV),
        run.tables.get(NATIVE_CSV, []),
        lambda r: (str(r["cipher"]), str(r["operation"]), int(r["payload_bytes"])),
        lambda r: NativeKey(str(r["native"]), str(r["operation"]), int(r["payload_bytes"])),
        lambda case: f"{case[0]} {case[1]}",
    )
    found = []
    for comparison in comparisons:
        cipher, operation = comparison.what.split(" ")
        smallest = min(
            (c for c in cases if c.key.engine == "openssl" and c.key.cipher == cipher and c.key.operation == operation),
            key=lambda c: c.key.payload_bytes,
            default=None,
        )
        found.append(
            Breakdown(
                comparison,
                smallest.summary.median_ns if smallest else None,
                smallest.key.payload_bytes if smallest else None,
            )
        )
    return found
