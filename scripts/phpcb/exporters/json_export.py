"""The comparison as JSON: every case with every number, for machines (a bot, a dashboard).

`format_version` changes when a field changes meaning or goes away; new fields may appear without
it. Infinite CI bounds (too few samples for a finite one) are null.
"""

from __future__ import annotations

import json
import math
from typing import Any

from ..comparison import ALPHA, MIN_SAMPLES, THRESHOLD, CaseComparison, Comparison, Side, Verdict
from ..stats import CONFIDENCE

FORMAT_VERSION = 1


def _number(value: float | None) -> float | None:
    return value if value is not None and math.isfinite(value) else None


def _side(side: Side | None) -> dict[str, Any] | None:
    if side is None:
        return None
    return {
        "n": side.n,
        "median_ns": side.median_ns,
        "median_ci_ns": [_number(side.ci_low_ns), _number(side.ci_high_ns)],
    }


def _case(key_columns: tuple[str, ...], case: CaseComparison) -> dict[str, Any]:
    return {
        "key": dict(zip(key_columns, case.key, strict=True)),
        "base": _side(case.base),
        "new": _side(case.new),
        "ratio": _number(case.ratio),
        "ratio_ci": None if case.ratio_low is None else [_number(case.ratio_low), _number(case.ratio_high)],
        "p_value": case.p_value,
        "p_adjusted": case.p_adjusted,
        "verdict": str(case.verdict),
    }


def to_dict(comparison: Comparison) -> dict[str, Any]:
    return {
        "format_version": FORMAT_VERSION,
        "base": comparison.base_id,
        "new": comparison.new_id,
        "across_machines": comparison.across_machines,
        "across_machines_because": comparison.environment.across_machines_because,
        "method": {
            "measure": "median time per operation, ns",
            "test": "Mann-Whitney U, two-sided (scipy.stats.mannwhitneyu)",
            "p_adjustment": "Benjamini-Hochberg across the tested cases of this comparison",
            "tested_cases": comparison.tested,
            "untested_verdicts": [str(v) for v in (Verdict.NEW, Verdict.MISSING, Verdict.TOO_FEW, Verdict.IDENTICAL)],
            "ratio": "median(new) / median(base)",
            "ratio_ci": "Mann-Whitney U inverted on log times (Hodges-Lehmann)",
            "confidence": CONFIDENCE,
            "alpha": ALPHA,
            "threshold": THRESHOLD,
            "min_samples": MIN_SAMPLES,
        },
        "environment": [
            {"label": row.label, "base": row.base, "new": row.new, "differs": row.differs}
            for row in comparison.environment.rows
        ],
        "advice_changes": [
            {"experiment": c.experiment, "key": c.key, "label": c.label, "base": c.base, "new": c.new}
            for c in comparison.advice_changes
        ],
        "summary": {str(verdict): count for verdict, count in comparison.counts().items()},
        "only_in_base": comparison.only_in_base,
        "only_in_new": comparison.only_in_new,
        "experiments": [
            {
                "name": e.name,
                "title": e.title,
                "key_columns": list(e.key_columns),
                "time_column": e.time_column,
                "iterations_column": e.iterations_column,
                "summary": {str(verdict): count for verdict, count in e.counts().items()},
                "cases": [_case(e.key_columns, case) for case in e.cases],
            }
            for e in comparison.experiments
        ],
    }


class JsonExporter:
    name = "json"

    def serialize(self, comparison: Comparison) -> str:
        return json.dumps(to_dict(comparison), indent=2, ensure_ascii=False, allow_nan=False) + "\n"
