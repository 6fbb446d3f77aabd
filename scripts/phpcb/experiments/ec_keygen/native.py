"""PHP's ECDSA, ECDH, RSA, Ed25519 and X25519 operations against `openssl speed` in interleaved rounds
(ec_keygen_rounds.csv, ec_keygen_native.csv)."""

from __future__ import annotations

from phpcb.data.loader import Run
from phpcb.data.schema import declared_measure
from phpcb.statistics.rounds import Breakdown, NativeKey, compare_rounds

ROUNDS_CSV = "ec_keygen_rounds.csv"
NATIVE_CSV = "ec_keygen_native.csv"


def breakdowns(run: Run) -> list[Breakdown]:
    """Public-key operations have no message size that would show a per-call cost: no breakdown."""
    comparisons = compare_rounds(
        run.tables.get(ROUNDS_CSV, []),
        declared_measure(ROUNDS_CSV),
        run.tables.get(NATIVE_CSV, []),
        lambda r: (str(r["curve"]), str(r["operation"])),
        lambda r: NativeKey(str(r["native"]), str(r["operation"]), 0),
        lambda case: f"{case[0]} {case[1]}",
    )
    return [Breakdown(comparison, None) for comparison in comparisons]
