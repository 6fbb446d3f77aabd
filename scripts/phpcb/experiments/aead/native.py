"""PHP's AEAD encryption against `openssl speed -evp`, measured in interleaved rounds (aead_rounds.csv,
aead_native.csv), and what the difference is made of: PHP sets up a cipher context per call, which
the native loop does once, so PHP's time for a 16-byte message is about what each call adds."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from phpcb.statistics.rounds import NativeKey, VsNative, compare_rounds

ROUNDS_CSV = "aead_rounds.csv"
NATIVE_CSV = "aead_native.csv"
SMALLEST_PAYLOAD = 16


def from_tables(php_rows: Sequence[Mapping[str, Any]], native_rows: Sequence[Mapping[str, Any]]) -> list[VsNative]:
    """Each cipher's PHP encryption against its native figure, paired by round."""
    return compare_rounds(
        php_rows,
        native_rows,
        lambda r: (str(r["algorithm"]), str(r["operation"]), int(r["payload_bytes"])),
        lambda r: NativeKey(str(r["native"]), str(r["operation"]), int(r["payload_bytes"])),
        lambda case: case[0],
    )
