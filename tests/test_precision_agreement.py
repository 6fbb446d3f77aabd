"""The runner stops sampling a case on the interval the build prints: PHP's MedianInterval and stats.py
agree on the same samples, number for number, and on the committed fixture run's counts."""

from __future__ import annotations

import json
import subprocess

import numpy as np

from phpcb.data.loader import load_run
from phpcb.data.sampling import measured_tables
from phpcb.data.schema import load_schemas
from phpcb.statistics import stats

from .conftest import FIXTURE_RUN, ROOT

PHP = """
require $argv[1] . '/runners/bootstrap.php';
use PhpCryptoBench\\Harness\\MedianInterval;
$out = [];
foreach (json_decode(stream_get_contents(STDIN), true) as [$elapsed, $iterations]) {
    $interval = MedianInterval::of(array_map(static fn (int $e): float => $e / $iterations, $elapsed));
    $half = $interval->relativeHalfWidth();
    $out[] = [$interval->median, is_finite($interval->low) ? $interval->low : null,
              is_finite($interval->high) ? $interval->high : null, is_finite($half) ? $half : null];
}
echo json_encode($out, JSON_PRESERVE_ZERO_FRACTION);
"""


def php_intervals(cases: list[tuple[list[int], int]]) -> list[list[float | None]]:
    result = subprocess.run(
        ["php", "-r", PHP, str(ROOT)], input=json.dumps(cases), capture_output=True, text=True, check=True
    )
    return json.loads(result.stdout)


def sample_cases() -> list[tuple[list[int], int]]:
    rng = np.random.default_rng(16)
    cases = []
    for n in [*range(1, 41), 57, 100, 101, 250, 1000]:
        iterations = int(rng.choice([1, 3, 7, 1000, 123_457]))
        elapsed = rng.lognormal(np.log(2e7), rng.uniform(0.001, 0.2), n).astype(np.int64)
        if n % 5 == 0:
            elapsed[: n // 2] = elapsed[0]  # ties
        cases.append(([int(e) for e in elapsed], iterations))
    return cases


def test_php_and_python_compute_the_same_median_interval_and_half_width():
    cases = sample_cases()
    for (elapsed, iterations), (median, low, high, half) in zip(cases, php_intervals(cases), strict=True):
        values = stats.per_op_ns(elapsed, [iterations] * len(elapsed))
        py_low, py_high = stats.median_ci(values)
        py_half = stats.relative_half_width(values)
        assert median == float(np.median(values)), len(elapsed)
        assert (low, high) == (
            py_low if np.isfinite(py_low) else None,
            py_high if np.isfinite(py_high) else None,
        ), len(elapsed)
        assert half == (py_half if np.isfinite(py_half) else None), len(elapsed)


def test_the_fixture_runs_sampling_record_is_what_the_build_computes():
    schemas = load_schemas(ROOT / "data" / "schema")
    run = load_run(FIXTURE_RUN, schemas)
    for name, entry in run.manifest["experiments"].items():
        sampling = entry.get("sampling")
        if sampling is None:
            continue
        per_case = [v for _, values in measured_tables(run, name, schemas) for v in values.values()]
        within = sum(stats.within_target(v, sampling["target"]) for v in per_case)
        assert (len(per_case), within) == (sampling["cases"], sampling["within_target"]), name
