"""Plotly figures for the jwt page, as plain JSON-ready dicts (the page script applies the palette)."""

from __future__ import annotations

from typing import Any

import plotly.graph_objects as go

from phpcb.experiments.jwt.analysis import JwtAnalysis, JwtCase, headline_payload
from phpcb.presentation.plotting import MEDIAN_IN_RUN, interval_error_bars, ms, plain, significant, time_error_bars
from phpcb.presentation.wording import CI


def _bars(cases: list[JwtCase]) -> dict[str, Any]:
    return time_error_bars([c.summary for c in cases])


def sign_verify(analysis: JwtAnalysis, payload: int) -> dict[str, Any]:
    figure = go.Figure()
    for operation in ("sign", "verify"):
        pairs = [(a.alg, a.case(operation, payload)) for a in analysis.algorithms]
        present = [(alg, case) for alg, case in pairs if case is not None]
        figure.add_trace(
            go.Bar(
                x=[alg for alg, _ in present],
                y=[ms(case.summary.median_ns) for _, case in present],
                error_y=_bars([case for _, case in present]),
                name=operation,
            )
        )
    figure.update_layout(
        title=f"Sign and verify time per algorithm, {payload}-character payload (error bars: {MEDIAN_IN_RUN.text})",
        barmode="group",
        xaxis={"title": "algorithm", "type": "category"},
        yaxis={"title": "ms per operation (log)", "type": "log"},
    )
    return plain(figure)


def token_sizes(analysis: JwtAnalysis, limits: dict[str, int]) -> dict[str, Any]:
    figure = go.Figure()
    for payload in analysis.payloads:
        figure.add_trace(
            go.Bar(
                x=[a.alg for a in analysis.algorithms],
                y=[a.token_bytes(payload) for a in analysis.algorithms],
                name=f"{payload}-character payload",
            )
        )
    for label, key in (("4 KiB: a cookie's limit", "cookie_bytes"), ("8 KiB: a common header limit", "header_bytes")):
        figure.add_hline(y=limits[key], line_dash="dash", annotation_text=label, annotation_position="top left")
    figure.update_layout(
        title="Token size per algorithm and payload, against cookie and header limits",
        barmode="group",
        xaxis={"title": "algorithm", "type": "category"},
        yaxis={"title": "bytes"},
    )
    return plain(figure)


def asymmetry(analysis: JwtAnalysis, payload: int) -> dict[str, Any]:
    rows = [(a.alg, a.asymmetry(payload)) for a in analysis.algorithms]
    present = [(alg, ratio) for alg, ratio in rows if ratio is not None]
    figure = go.Figure(
        go.Bar(
            x=[alg for alg, _ in present],
            y=[significant(r.value) for _, r in present],
            error_y=interval_error_bars([r for _, r in present]),
            name="sign time ÷ verify time",
        )
    )
    figure.add_hline(y=1, line_dash="dot")
    figure.update_layout(
        title=f"Sign/verify asymmetry: above 1, verifying is cheaper than signing ({CI})",
        xaxis={"title": "algorithm", "type": "category"},
        yaxis={"title": "sign ÷ verify (log)", "type": "log"},
        showlegend=False,
    )
    return plain(figure, legend_below=False)


LAYER_NAMES = (("native", "openssl speed (native)"), ("primitive", "PHP's primitive"), ("jws", "this JWS code"))


def layers(analysis: JwtAnalysis, operation: str) -> dict[str, Any] | None:
    """Per algorithm, the three layers' median time per operation, with their 95% CIs."""
    rows = [x for x in analysis.layers if x.operation == operation]
    if not rows:
        return None
    figure = go.Figure()
    for layer, name in LAYER_NAMES:
        present = [(x.alg, series) for x in rows if (series := getattr(x, layer)) is not None]
        summaries = [series.summary for _, series in present]
        figure.add_trace(
            go.Bar(
                x=[alg for alg, _ in present],
                y=[ms(s.median_ns) for s in summaries],
                error_y=time_error_bars(summaries),
                name=name,
            )
        )
    figure.update_layout(
        title=f"{operation.capitalize()}: native, PHP's primitive and the JWS layer, same rounds "
        f"(error bars: {MEDIAN_IN_RUN.text})",
        barmode="group",
        xaxis={"title": "algorithm", "type": "category"},
        yaxis={"title": "ms per operation (log)", "type": "log"},
    )
    return plain(figure)


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
