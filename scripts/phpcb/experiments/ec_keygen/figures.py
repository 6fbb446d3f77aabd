"""Plotly figures for the ec_keygen page, as plain JSON-ready dicts (the page script applies the palette)."""

from __future__ import annotations

import html
from typing import Any

import plotly.graph_objects as go

from phpcb.experiments.ec_keygen.analysis import EcAnalysis, Operation, SchemeResult
from phpcb.presentation.plotting import interval_error_bars, ms, plain, significant, time_error_bars

OPERATION_SYMBOLS = {"sign": "circle", "verify": "diamond", "derive": "square"}
KINDS = {"ECC (OpenSSL curves)": "curve", "RSA (OpenSSL)": "rsa", "Curve25519 (sodium)": "sodium"}


def _error_bars(operations: list[Operation]) -> dict[str, Any]:
    return time_error_bars([o.summary for o in operations])


def _kind(result: SchemeResult) -> str:
    if result.scheme.is_curve:
        return "curve"
    return "rsa" if result.scheme.family == "rsa" else "sodium"


def keygen_vs_size(analysis: EcAnalysis) -> dict[str, Any]:
    """Every curve: key generation time against field size, one trace per family (the legend filters)."""
    figure = go.Figure()
    for family in sorted({r.scheme.family for r in analysis.curves}):
        members = [r for r in analysis.curves if r.scheme.family == family]
        figure.add_trace(
            go.Scatter(
                x=[r.scheme.field_bits for r in members],
                y=[ms(r.keygen.summary.median_ns) for r in members],
                error_y=_error_bars([r.keygen for r in members]),
                # Only the recommended curves are labelled on the chart; the rest are named on hover.
                mode="markers+text",
                name=html.escape(family),
                text=[html.escape(r.scheme.curve) if r.verdict.recommendable else "" for r in members],
                textposition="top center",
                hovertext=[html.escape(r.scheme.curve) for r in members],
                hovertemplate="%{hovertext}: %{x} bits, %{y:.3~r} ms<extra>%{fullData.name}</extra>",
            )
        )
    figure.update_layout(
        title="Key generation time against field size, every curve; the recommended ones named (error bars: 95% CI)",
        xaxis={"title": "field size (bits, read from the key)"},
        yaxis={"title": "ms per key (log)", "type": "log"},
    )
    return plain(figure)


def group_ratios(analysis: EcAnalysis) -> dict[str, Any]:
    """The article's group averages beside today's, with today's bootstrap CI."""
    rows = analysis.families
    figure = go.Figure()
    figure.add_trace(
        go.Bar(
            x=[html.escape(row.family) for row in rows],
            y=[significant(row.average.value) for row in rows],
            error_y=interval_error_bars([row.average for row in rows]),
            name="this run (median)",
        )
    )
    figure.add_trace(
        go.Bar(
            x=[html.escape(row.family) for row in rows],
            y=[row.paper_average for row in rows],
            name="the 2020 article (mean)",
        )
    )
    figure.update_layout(
        title="The article's ratio per group: ms per key ÷ key bits, in % (lower is faster)",
        barmode="group",
        xaxis={"title": "group of curves", "type": "category"},
        yaxis={"title": "ratio (%)"},
    )
    return plain(figure)


def equal_security(analysis: EcAnalysis) -> dict[str, Any]:
    """Key generation at each strength: curves, RSA and sodium side by side (log scale)."""
    figure = go.Figure()
    for label, kind in KINDS.items():
        members = [r for r in analysis.results if _kind(r) == kind and r.scheme.security_bits >= 112]
        figure.add_trace(
            go.Scatter(
                x=[f"{r.scheme.security_bits}-bit" for r in members],
                y=[ms(r.keygen.summary.median_ns) for r in members],
                error_y=_error_bars([r.keygen for r in members]),
                mode="markers",
                marker={"size": 10},
                name=label,
                text=[html.escape(r.scheme.curve) for r in members],
                hovertemplate="%{text}: %{y:.3~r} ms<extra>%{fullData.name}</extra>",
            )
        )
    figure.update_layout(
        title="Key generation at equal security (NIST SP 800-57 strength; 112 bits and up)",
        xaxis={
            "title": "security strength",
            "type": "category",
            "categoryorder": "array",
            "categoryarray": ["112-bit", "128-bit", "192-bit", "256-bit"],
        },
        yaxis={"title": "ms per key (log)", "type": "log"},
    )
    return plain(figure)


def sign_verify(analysis: EcAnalysis) -> dict[str, Any]:
    """Sign, verify and derive per scheme, ordered by strength then name."""
    ordered = sorted(
        (r for r in analysis.results if len(r.operations) > 1),
        key=lambda r: (r.scheme.security_bits, r.scheme.curve),
    )
    names = [html.escape(r.scheme.curve) for r in ordered]
    figure = go.Figure()
    for operation, symbol in OPERATION_SYMBOLS.items():
        members = [r for r in ordered if operation in r.operations]
        figure.add_trace(
            go.Scatter(
                y=[html.escape(r.scheme.curve) for r in members],
                x=[ms(r.operations[operation].summary.median_ns) for r in members],
                mode="markers",
                marker={"symbol": symbol, "size": 8},
                name=operation,
                hovertemplate="%{y}: %{x:.3~r} ms<extra>%{fullData.name}</extra>",
            )
        )
    figure.update_layout(
        title="Sign, verify and derive per scheme (weakest at the bottom)",
        xaxis={"title": "ms per operation (log)", "type": "log"},
        # dtick 1: a label on every row; Plotly would otherwise skip every other curve's name.
        yaxis={"categoryorder": "array", "categoryarray": names, "automargin": True, "dtick": 1},
        height=max(500, 16 * len(names) + 160),
    )
    return plain(figure, legend_below=False)


def all_figures(analysis: EcAnalysis) -> dict[str, dict[str, Any]]:
    figures: dict[str, dict[str, Any]] = {}
    if analysis.curves:
        figures["ec-keygen-size"] = keygen_vs_size(analysis)
        figures["ec-group-ratio"] = group_ratios(analysis)
    if analysis.results:
        figures["ec-equal-security"] = equal_security(analysis)
        figures["ec-sign-verify"] = sign_verify(analysis)
    return figures
