"""PHP's AEAD encryption against `openssl speed -evp`, measured in interleaved rounds (aead_rounds.csv,
aead_native.csv), and what the difference is made of: PHP sets up a cipher context per call, which
the native loop does once, so PHP's time for a 16-byte message is about what each call adds."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from phpcb.data.schema import declared_measure
from phpcb.statistics.rounds import NativeKey, VsNative, compare_rounds

ROUNDS_CSV = "aead_rounds.csv"
NATIVE_CSV = "aead_native.csv"
# One `openssl speed` figure per cipher and size, taken apart from PHP's: what runs before schema 8 wrote.
SINGLE_FIGURES_CSV = "native.csv"
SMALLEST_PAYLOAD = 16


def from_tables(php_rows: Sequence[Mapping[str, Any]], native_rows: Sequence[Mapping[str, Any]]) -> list[VsNative]:
    """Each cipher's PHP encryption against its native figure, paired by round."""
    return compare_rounds(
        php_rows,
        declared_measure(ROUNDS_CSV),
        native_rows,
        lambda r: (str(r["algorithm"]), str(r["operation"]), int(r["payload_bytes"])),
        lambda r: NativeKey(str(r["native"]), str(r["operation"]), int(r["payload_bytes"])),
        lambda case: case[0],
    )


def native_figures(
    tables: Mapping[str, Sequence[Mapping[str, Any]]], rounds: Sequence[VsNative]
) -> list[dict[str, Any]]:
    """The native limit per cipher and size, as rows of `algorithm`, `block_bytes`, `bytes_per_second`: the
    median of the native rounds (measured beside PHP's samples), or, for a run written before schema 8
    that took one figure apart, that figure."""
    single = tables.get(SINGLE_FIGURES_CSV)
    if single:
        return [dict(row) for row in single]
    return [
        {
            "algorithm": found.native.primitive,
            "block_bytes": found.native.block_bytes,
            "bytes_per_second": found.native.block_bytes / found.native_side.summary.median_ns * 1e9,
            "rounds": found.rounds,
        }
        for found in rounds
        if found.native.block_bytes > 0 and found.native_side.summary.median_ns > 0
    ]
