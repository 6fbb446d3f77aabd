"""Secretstream in 64 KiB chunks against one XChaCha20-Poly1305 call (aead_stream.csv), from synthetic
samples whose answer is known: the ratio, paired by round where the manifest says so, and the page faults."""

import numpy as np
import pytest

from phpcb.data.loader import Run
from phpcb.experiments.aead import stream
from phpcb.presentation.wording import speedup

MIB10 = 10 * 1024 * 1024
KIB512 = 512 * 1024


def stream_rows(algorithm, operation, payload, ns_per_op, faults=0, seed=0, samples=9):
    """Samples of one side; sample r of every side shares the round's drift, as rotation makes it."""
    rng = np.random.default_rng(seed)
    drift = np.random.default_rng(99).normal(1, 0.05, samples)  # the machine, the same for both sides
    return [
        {
            "algorithm": algorithm,
            "operation": operation,
            "payload_bytes": payload,
            "chunk_bytes": 65536 if algorithm == stream.SECRETSTREAM else payload,
            "sample": sample,
            "iterations": 2,
            "elapsed_ns": int(2 * ns_per_op * drift[sample] * rng.normal(1, 0.002)),
            "minor_faults": 2 * faults,
        }
        for sample in range(samples)
    ]


def stream_run(rows, interleaved=True):
    sampling = {"target": 0.03, "minimum_samples": 7, "cases": 4, "within_target": 4, "interleaved_by": {}}
    if interleaved:
        sampling["interleaved_by"] = {stream.STREAM_TABLE: ["operation", "payload_bytes"]}
    manifest = {"experiments": {"aead": {"status": "ok", "files": [stream.STREAM_TABLE], "sampling": sampling}}}
    return Run.from_rows("20260101T0000Z-test-php8.2", manifest, {stream.STREAM_TABLE: rows})


def test_one_call_slower_at_10_mib_says_secretstream_is_faster_with_a_paired_interval():
    rows = [
        *stream_rows(stream.SECRETSTREAM, "encrypt", MIB10, 8_000_000, faults=0, seed=1),
        *stream_rows(stream.ONE_CALL, "encrypt", MIB10, 10_000_000, faults=2_561, seed=2),
        *stream_rows(stream.SECRETSTREAM, "encrypt", KIB512, 420_000, seed=3),
        *stream_rows(stream.ONE_CALL, "encrypt", KIB512, 400_000, seed=4),
    ]
    found = stream.stream_comparisons(stream_run(rows))
    assert [(c.operation, c.payload_bytes) for c in found] == [("encrypt", MIB10), ("encrypt", KIB512)]
    large, small = found
    assert large.paired
    assert large.ratio.value == pytest.approx(1.25, rel=0.01)
    assert speedup("secretstream", "one call", large.ratio).startswith("secretstream is 1.2")
    # The drift of 5 % per round is common to both sides: paired, the interval stays narrow.
    assert large.ratio.high / large.ratio.low < 1.02
    assert (large.stream.faults_per_op, large.one_call.faults_per_op) == (0, 2_561)
    assert (large.stream.chunk_bytes, large.one_call.chunk_bytes) == (65536, MIB10)
    assert small.ratio.value == pytest.approx(400 / 420, rel=0.01)
    assert speedup("secretstream", "one call", small.ratio).startswith("one call is 1.0")


def test_sides_not_sampled_together_are_compared_unpaired():
    rows = [
        *stream_rows(stream.SECRETSTREAM, "decrypt", MIB10, 8_000_000, seed=1),
        *stream_rows(stream.ONE_CALL, "decrypt", MIB10, 8_000_000, seed=2),
    ]
    (found,) = stream.stream_comparisons(stream_run(rows, interleaved=False))
    assert not found.paired
    assert not found.ratio.significant, "equal medians, and the rounds' drift no longer cancels"


def test_a_run_without_the_table_has_no_comparison():
    assert stream.stream_comparisons(stream_run([])) == []
