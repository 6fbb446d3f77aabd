"""Plotly figures for the jwt page, as plain JSON-ready dicts (the page script applies the palette)."""

from __future__ import annotations

from typing import Any

import plotly.graph_objects as go

from phpcb.experiments.jwt.analysis import JwtAnalysis, JwtCase, headline_payload
from phpcb.presentation.plotting import (
    MEDIAN_IN_RUN,
    figure_data,
    horizontal_line,
    interval_error_bars,
    ms,
    significant,
    sizes_against_limits,
    time_error_bars,
)
from phpcb.presentation.wording import CI


def _bars(cases: list[JwtCase]) -> dict[str, Any]:
    return time_error_bars([c.summary for c in cases])


def sign_verify(analysis: JwtAnalysis, payload: int) -> dict[str, Any]:
    traces = []
    for operation in ("sign", "verify"):
        pairs = [(a.alg, a.case(operation, payload)) for a in analysis.algorithms]
        present = [(alg, case) for alg, case in pairs if case is not None]
        traces.append(
            go.Bar(
                x=[alg for alg, _ in present],
                y=[ms(case.summary.median_ns) for _, case in present],
                error_y=_bars([case for _, case in present]),
                name=operation,
            )
        )
    return figure_data(
        traces,
        {
            "title": (
                f"Sign and verify time per algorithm, {payload}-character payload (error bars: {MEDIAN_IN_RUN.text})"
            ),
            "barmode": "group",
            "xaxis": {"title": "algorithm", "type": "category"},
            "yaxis": {"title": "ms per operation (log)", "type": "log"},
        },
    )


def token_sizes(analysis: JwtAnalysis, limits: dict[str, int]) -> dict[str, Any]:
    lines = (("4 KiB: a cookie's limit", "cookie_bytes"), ("8 KiB: a common header limit", "header_bytes"))
    return sizes_against_limits(
        "Token size per algorithm and payload, against cookie and header limits",
        [a.alg for a in analysis.algorithms],
        {payload: [a.token_bytes(payload) for a in analysis.algorithms] for payload in analysis.payloads},
        [(label, limits[key]) for label, key in lines],
    )


def asymmetry(analysis: JwtAnalysis, payload: int) -> dict[str, Any]:
    rows = [(a.alg, a.asymmetry(payload)) for a in analysis.algorithms]
    present = [(alg, ratio) for alg, ratio in rows if ratio is not None]
    bars = go.Bar(
        x=[alg for alg, _ in present],
        y=[significant(r.value) for _, r in present],
        error_y=interval_error_bars([r for _, r in present]),
        name="sign time ÷ verify time",
    )
    return figure_data(
        [bars],
        {
            "shapes": [horizontal_line(1, "dot")],
            "title": f"Sign/verify asymmetry: above 1, verifying is cheaper than signing ({CI})",
            "xaxis": {"title": "algorithm", "type": "category"},
            "yaxis": {"title": "sign ÷ verify (log)", "type": "log"},
            "showlegend": False,
        },
        legend_below=False,
    )


LAYER_NAMES = (("native", "openssl speed (native)"), ("primitive", "PHP's primitive"), ("jws", "this JWS code"))


def layers(analysis: JwtAnalysis, operation: str) -> dict[str, Any] | None:
    """Per algorithm, the three layers' median time per operation, with their 95% CIs."""
    rows = [x for x in analysis.layers if x.operation == operation]
    if not rows:
        return None
    traces = []
    for layer, name in LAYER_NAMES:
        present = [(x.alg, series) for x in rows if (series := getattr(x, layer)) is not None]
        summaries = [series.summary for _, series in present]
        traces.append(
            go.Bar(
                x=[alg for alg, _ in present],
                y=[ms(s.median_ns) for s in summaries],
                error_y=time_error_bars(summaries),
                name=name,
            )
        )
    return figure_data(
        traces,
        {
            "title": f"{operation.capitalize()}: native, PHP's primitive and the JWS layer, same rounds "
            f"(error bars: {MEDIAN_IN_RUN.text})",
            "barmode": "group",
            "xaxis": {"title": "algorithm", "type": "category"},
            "yaxis": {"title": "ms per operation (log)", "type": "log"},
        },
    )


def all_figures(analysis: JwtAnalysis, limits: dict[str, int]) -> dict[str, dict[str, Any]]:
    if not analysis.algorithms:
        return {}
    payload = headline_payload(analysis.payloads)
    figures = {
        "jwt-sign-verify": sign_verify(analysis, payload),
        "jwt-token-size": token_sizes(analysis, limits),
        "jwt-asymmetry": asymmetry(analysis, payload),
    }
    for operation in ("verify", "sign"):
        figure = layers(analysis, operation)
        if figure is not None:
            figures[f"jwt-layers-{operation}"] = figure
    return figures
