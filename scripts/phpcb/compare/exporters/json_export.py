"""The comparison as JSON: every case with every number, for machines (a bot, a dashboard).

`format_version` changes when a field changes meaning or goes away; new fields may appear without
it. Infinite CI bounds (too few samples for a finite one) are null.
"""

from __future__ import annotations

import json
import math
from typing import Any

from phpcb.compare.comparison import (
    ALPHA,
    MIN_SAMPLES,
    THRESHOLD,
    UNTESTED,
    CaseComparison,
    ClassShift,
    Comparison,
    Side,
)
from phpcb.presentation.wording import CI
from phpcb.statistics.stats import CONFIDENCE

# 2: p_value is the residual's (the change beyond the class's shift) against the between-run spread,
# no longer Mann–Whitney's within-run p; residual, spread and the class shifts are new.
FORMAT_VERSION = 2


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
        "class": case.case_class,
        "residual": _number(case.residual),
        "spread_log_sd": _number(case.spread_log),
        "spread_source": case.spread_source,
        "p_value": case.p_value,
        "p_adjusted": case.p_adjusted,
        "verdict": str(case.verdict),
    }


def _shift(shift: ClassShift) -> dict[str, Any]:
    return {
        "class": shift.label,
        "cases": shift.cases,
        "basis_cases": shift.basis,
        "ratio": shift.ratio,
        "ratio_ci": [_number(shift.low), _number(shift.high)],
    }


def to_dict(comparison: Comparison) -> dict[str, Any]:
    return {
        "format_version": FORMAT_VERSION,
        "base": comparison.base_id,
        "new": comparison.new_id,
        "across_machines": comparison.across_machines,
        "across_machines_because": comparison.environment.across_machines_because,
        "confounders": [
            {"label": row.label, "base": row.base, "new": row.new} for row in comparison.environment.confounders
        ],
        "noise_model_runs": None if comparison.noise_runs is None else list(comparison.noise_runs),
        "across_boots": comparison.across_boots,
        "loaded": [
            {
                "run": found.run_id,
                "experiment": found.experiment,
                "others_share": found.others_share,
                "before_the_run": found.before_the_run,
            }
            for found in comparison.loaded
        ],
        "method": {
            "measure": "median time per operation, ns",
            "shift": "per experiment and case class: the median of the cases' ratios new/base, with the "
            f"order-statistic {CI} of that median",
            "residual": "a case's ratio divided by its class's shift",
            "test": "two-sided normal test of log(residual) against the between-run spread (the machine's noise "
            "model, or the pair's MAD) with the within-run spread added in quadrature",
            "p_adjustment": "Benjamini-Hochberg across the tested cases of this comparison",
            "tested_cases": comparison.tested,
            "untested_verdicts": [str(v) for v in UNTESTED],
            "ratio": "median(new) / median(base)",
            "ratio_ci": "within-run: Mann-Whitney U inverted on log times (Hodges-Lehmann)",
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
            {"experiment": c.experiment, "key": c.key, "label": c.label, "base": c.base, "new": c.new, "tie": c.tie}
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
                "shifts": [_shift(shift) for shift in e.shifts],
                "cases": [_case(e.key_columns, case) for case in e.cases],
            }
            for e in comparison.experiments
        ],
    }


class JsonExporter:
    name = "json"

    def serialize(self, comparison: Comparison) -> str:
        return json.dumps(to_dict(comparison), indent=2, ensure_ascii=False, allow_nan=False) + "\n"
