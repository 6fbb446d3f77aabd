"""Large payloads (aead_stream.csv): libsodium's secretstream in 64 KiB chunks, the calls
runners/snippets/secretstream-large-payload.php makes, against one XChaCha20-Poly1305 call on the whole
payload, sampled in rotation at each operation and payload. Their ratio, paired by round where the
manifest says the two were sampled together, answers whether chunking costs speed; the page faults per
operation say what one call's fresh 10 MiB output costs (PHP maps it anew, a fault per 4 KiB)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from phpcb.data.loader import Run
from phpcb.data.sampling import Pairing
from phpcb.data.schema import declared_measure
from phpcb.statistics import plausibility
from phpcb.statistics.stats import Ratio, Summary, per_op_by_case, ratio_between, summarize

STREAM_TABLE = "aead_stream.csv"
SECRETSTREAM = "sodium-secretstream-xchacha20poly1305"
ONE_CALL = "sodium-xchacha20poly1305-ietf"

Key = tuple[str, str, int, int]  # algorithm, operation, payload bytes, chunk bytes


@dataclass(frozen=True)
class StreamSide:
    """One way of encrypting (or decrypting) one payload: its time per operation and page faults."""

    algorithm: str
    chunk_bytes: int
    summary: Summary
    faults_per_op: float | None

    def mb_per_s(self, payload_bytes: int) -> float:
        return self.summary.mb_per_s(payload_bytes)


@dataclass(frozen=True)
class StreamComparison:
    """Secretstream against one call at one operation and payload. `ratio` is one call's time over
    secretstream's (bigger than 1: secretstream is faster), paired by round when `paired`."""

    operation: str
    payload_bytes: int
    stream: StreamSide
    one_call: StreamSide
    ratio: Ratio
    paired: bool


def stream_comparisons(run: Run) -> list[StreamComparison]:
    """Every operation and payload the run measured both ways, largest payload first, encryption first."""
    rows = run.tables.get(STREAM_TABLE, [])

    def key(row: Mapping[str, Any]) -> Key:
        return (str(row["algorithm"]), str(row["operation"]), int(row["payload_bytes"]), int(row["chunk_bytes"]))

    measure = declared_measure(STREAM_TABLE)
    times = per_op_by_case(rows, key, measure)
    faults = plausibility.faults_per_op(rows, key, measure)
    pairing = Pairing.of(run, "aead", STREAM_TABLE)
    sides = {(k[0], k[1], k[2]): StreamSide(k[0], k[3], summarize(v), faults[k]) for k, v in times.items()}
    samples = {(k[0], k[1], k[2]): v for k, v in times.items()}
    found = []
    for (algorithm, operation, payload), stream in sides.items():
        one_call = sides.get((ONE_CALL, operation, payload))
        if algorithm != SECRETSTREAM or one_call is None:
            continue
        keys = [{"operation": operation, "payload_bytes": payload} for _ in range(2)]
        paired = pairing.together(*keys)
        ratio = ratio_between(samples[(ONE_CALL, operation, payload)], samples[(algorithm, operation, payload)], paired)
        found.append(StreamComparison(operation, payload, stream, one_call, ratio, paired))
    return sorted(found, key=lambda c: (-c.payload_bytes, c.operation != "encrypt"))
