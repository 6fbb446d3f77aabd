"""Where PHP's AEAD time goes, beside `openssl speed`: what the harness adds, and what a fixed cost per
call explains.

**Harness overhead** (harness_overhead.csv): AES-256-GCM encryption timed as aead.csv times it (the
harness, an AeadAlgorithm object, a nonce per message, a Sealed result) and as a bare
`openssl_encrypt` loop, sampled in rotation; their ratio, paired by round. Within 5 % of 1 (the whole
CI), the harness measures PHP, not itself.

**Per-call model.** One `openssl_encrypt` call on 16 B does ~10 ns of AES work; everything else it
costs is per call (a cipher context, the key schedule, PHP's arguments and result string). Take PHP's
time at 16 B as that cost c. At 16 KiB PHP takes t and `openssl speed` (which sets its context up
once and encrypts block after block) takes n per 16 KiB. If the rest of PHP's work were the
library's, t − n would be c: the share c / (t − n) is how much of the gap the per-call cost explains;
the remainder is PHP's own per-byte work (copying the message in and the ciphertext out). The model
allows at most 100 %, and no share below 0: where even the CI's lower end is above 100 %, one call
costs more than the whole gap; where it is below 0, the gap is lost in the noise of the two figures;
either way the model does not fit (the page says so, with what it measured, not a share).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

import numpy as np

from phpcb.data.loader import Run
from phpcb.data.sampling import Pairing
from phpcb.data.schema import declared_measure
from phpcb.presentation.formatting import duration, percent, size
from phpcb.presentation.wording import CI
from phpcb.statistics.stats import Estimate, Ratio, Summary, per_op_by_case, ratio_between, share_of_gap, summarize
from phpcb.statistics.thresholds import OVERHEAD_GOAL

OVERHEAD_TABLE = "harness_overhead.csv"
SMALL_PAYLOAD = 16  # bytes: the time of a call that does almost no work
LARGE_PAYLOAD = 16384  # bytes: where PHP is set beside `openssl speed`


@dataclass(frozen=True)
class Overhead:
    """The harness's time over a bare loop's, for one payload (ratio above 1: the harness adds)."""

    # A check of the harness, kept with its own CI (between_runs.py): its goal is about this run's samples.
    WITHIN_RUN_ONLY: ClassVar[bool] = True

    algorithm: str
    payload_bytes: int
    harness: Summary
    bare: Summary
    ratio: Ratio
    paired: bool

    @property
    def within_goal(self) -> bool:
        """The whole CI lies within the goal: at most 5 % added (or the harness is faster)."""
        return self.ratio.high <= 1 + OVERHEAD_GOAL


def _overhead_case(row: Mapping[str, Any]) -> tuple[str, int, str]:
    return str(row["algorithm"]), int(row["payload_bytes"]), str(row["loop"])


def harness_overhead(run: Run) -> list[Overhead]:
    rows = run.tables.get(OVERHEAD_TABLE, [])
    by_case = per_op_by_case(rows, _overhead_case, declared_measure(OVERHEAD_TABLE))
    pairing = Pairing.of(run, "aead", OVERHEAD_TABLE)
    found = []
    for (algorithm, payload, loop), harness in by_case.items():
        bare = by_case.get((algorithm, payload, "bare"))
        if loop != "harness" or bare is None:
            continue
        keys = [{"algorithm": algorithm, "payload_bytes": payload, "loop": side} for side in ("harness", "bare")]
        paired = pairing.together(*keys)
        found.append(
            Overhead(
                algorithm,
                payload,
                summarize(harness),
                summarize(bare),
                ratio_between(harness, bare, paired),
                paired,
            )
        )
    return found


@dataclass(frozen=True)
class PerCallModel:
    """One algorithm: PHP at 16 B and 16 KiB, `openssl speed` at 16 KiB, and the share of the gap
    that PHP's cost per call explains, with its CI."""

    algorithm: str
    per_call: Summary
    php: Summary
    native_ns: float
    explained: Estimate

    @property
    def gap_ns(self) -> float:
        return self.php.median_ns - self.native_ns

    @property
    def fits(self) -> bool:
        """The share's CI lies at or above 0 and reaches 100 % or below: a cost per call plus work per byte
        can give the gap. A CI reaching below zero says the gap is too small beside the noise of the two
        figures to be shared out at all."""
        return 0.0 <= self.explained.low <= 1.0

    @property
    def explained_text(self) -> str:
        """The share with its CI, or, where the model does not fit, what it measured instead."""
        if self.fits:
            return f"{percent(self.explained.value)} ({percent(self.explained.low)} – {percent(self.explained.high)})"
        if self.explained.low < 0:
            return (
                f"the model does not fit: the gap ({duration(self.gap_ns)}) is within the noise of PHP's time at "
                f"{size(LARGE_PAYLOAD)} (its share's {CI} reaches below zero)"
            )
        return (
            f"the model does not fit: one call at {size(SMALL_PAYLOAD)} ({duration(self.per_call.median_ns)}) "
            f"costs more than the whole gap ({duration(self.gap_ns)})"
        )


def per_call_models(
    encrypt_times: Mapping[tuple[str, int], np.ndarray], native_rows: list[dict[str, Any]]
) -> list[PerCallModel]:
    """`encrypt_times`: PHP's per-operation times by (algorithm, payload), encryption as `openssl speed`
    does it (16-byte tag, no AAD)."""
    models = []
    for row in native_rows:
        algorithm = str(row["algorithm"])
        if int(row["block_bytes"]) != LARGE_PAYLOAD:
            continue
        small = encrypt_times.get((algorithm, SMALL_PAYLOAD))
        large = encrypt_times.get((algorithm, LARGE_PAYLOAD))
        if small is None or large is None:
            continue
        native_ns = LARGE_PAYLOAD / float(row["bytes_per_second"]) * 1e9
        php_ns = float(np.median(large))
        if php_ns <= native_ns:
            continue  # no gap to explain
        models.append(
            PerCallModel(
                algorithm, summarize(small), summarize(large), native_ns, share_of_gap(small, large, native_ns)
            )
        )
    return models
