"""Plotly figures for the pq page, as plain JSON-ready dicts (the page script applies the palette)."""

from __future__ import annotations

from typing import Any

import plotly.graph_objects as go

from phpcb.experiments.pq.analysis import LOADS, SIGNATURE_OPERATIONS, PqAnalysis
from phpcb.presentation.plotting import (
    MEDIAN_IN_RUN,
    figure_data,
    ms,
    sizes_against_limits,
    time_error_bars,
)

OPERATION_NAMES = {
    "sign": "openssl_sign()",
    "verify": "openssl_verify()",
    "load_private": "openssl_pkey_get_private()",
    "load_public": "openssl_pkey_get_public()",
}


def times(analysis: PqAnalysis, operations: tuple[str, ...], payload: int, title: str) -> dict[str, Any] | None:
    traces = []
    for operation in operations:
        present = [(a.name, case) for a in analysis.algorithms if (case := a.case(operation, payload)) is not None]
        if not present:
            continue
        traces.append(
            go.Bar(
                x=[name for name, _ in present],
                y=[ms(case.summary.median_ns) for _, case in present],
                error_y=time_error_bars([case.summary for _, case in present]),
                name=OPERATION_NAMES[operation],
            )
        )
    if not traces:
        return None
    return figure_data(
        traces,
        {
            "title": f"{title} (error bars: {MEDIAN_IN_RUN.text})",
            "barmode": "group",
            "xaxis": {"title": "algorithm", "type": "category"},
            "yaxis": {"title": "ms per operation (log)", "type": "log"},
        },
    )


LIMITS = (("a cookie's limit", "cookie_bytes"), ("a common header limit", "header_bytes"))


def token_sizes(analysis: PqAnalysis, limits: dict[str, int]) -> dict[str, Any]:
    return sizes_against_limits(
        "Compact JWS size per algorithm and payload, against cookie and header limits",
        [a.name for a in analysis.algorithms],
        {payload: [a.token_bytes(payload) for a in analysis.algorithms] for payload in analysis.payloads},
        [(f"{limits[key]:,} B: {label}", limits[key]) for label, key in LIMITS],
    )


def all_figures(analysis: PqAnalysis) -> dict[str, dict[str, Any]]:
    if not analysis.algorithms:
        return {}
    payload = analysis.headline_payload
    found = {
        "pq-sign-verify": times(
            analysis, SIGNATURE_OPERATIONS, payload, f"Sign and verify per algorithm, {payload}-character token"
        ),
        "pq-token-size": token_sizes(analysis, analysis.limits),
        "pq-load": times(analysis, LOADS, 0, "Loading a key from its PEM per algorithm"),
    }
    return {name: figure for name, figure in found.items() if figure is not None}
