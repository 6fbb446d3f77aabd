"""Plotly figures for the ec_keygen page, as plain JSON-ready dicts (the page script applies the palette)."""

from __future__ import annotations

import html
import math
from typing import Any

import plotly.graph_objects as go
from plotly.subplots import make_subplots

from phpcb.experiments.ec_keygen.analysis import EcAnalysis, Operation, SchemeResult
from phpcb.presentation.plotting import (
    INTERVAL_HOVER,
    MEDIAN_IN_RUN,
    Spread,
    decade_ticks,
    figure_data,
    interval_points,
    label,
    ms,
    plain,
    time_error_bars,
    time_point,
)

OPERATION_SYMBOLS = {"sign": "circle", "verify": "diamond", "derive": "square"}
KINDS = {"ECC (OpenSSL curves)": "curve", "RSA (OpenSSL)": "rsa", "Curve25519 (sodium)": "sodium"}


def _error_bars(operations: list[Operation]) -> dict[str, Any]:
    return time_error_bars([o.summary for o in operations])


def _kind(result: SchemeResult) -> str:
    if result.scheme.is_curve:
        return "curve"
    return "rsa" if result.scheme.family == "rsa" else "sodium"


def keygen_vs_size(analysis: EcAnalysis) -> dict[str, Any]:
    """Every curve: key generation time against field size, one trace per family (the legend filters).
    The recommended curves are named by an arrow to their own point: a name set above a point could
    be read as its neighbour's (prime256v1 between P-224 and P-256)."""
    traces = []
    for family in sorted({r.scheme.family for r in analysis.curves}):
        members = [r for r in analysis.curves if r.scheme.family == family]
        traces.append(
            go.Scatter(
                x=[r.scheme.field_bits for r in members],
                y=[ms(r.keygen.summary.median_ns) for r in members],
                error_y=_error_bars([r.keygen for r in members]),
                mode="markers",
                name=label(family),
                hovertext=[label(r.scheme.curve) for r in members],
                hovertemplate="%{hovertext}: %{x} bits, %{y:.3~r} ms<extra>%{fullData.name}</extra>",
            )
        )
    arrows = [
        {
            "x": r.scheme.field_bits,
            # An annotation on a log axis is placed in log10 units.
            "y": math.log10(ms(r.keygen.summary.median_ns)),
            "text": label(r.scheme.curve),
            "showarrow": True,
            "arrowhead": 2,
            "arrowwidth": 1,
            "standoff": 4,
            "ax": 0,
            "ay": -36,
        }
        for r in analysis.curves
        if r.verdict.recommendable
    ]
    return figure_data(
        traces,
        {
            "annotations": arrows,
            "title": (
                "Key generation time against field size, every curve; the recommended ones named "
                f"(error bars: {MEDIAN_IN_RUN.text})"
            ),
            "xaxis": {"title": "field size (bits, read from the key)"},
            "yaxis": {"title": "ms per key (log)", "type": "log"},
        },
    )


GROUP_AVERAGE = Spread("the group's mean ratio", method="bootstrap")


def group_ratios(analysis: EcAnalysis) -> dict[str, Any]:
    """The article's group averages and today's, each on its own scale: the article's are 10–20× this
    run's, and at one scale this run's order could not be seen. Groups in this run's order."""
    rows = analysis.families
    names = [label(row.family) for row in rows]
    figure = make_subplots(
        rows=2,
        cols=1,
        shared_xaxes=True,
        vertical_spacing=0.14,
        subplot_titles=("this run: from medians", "the 2020 article: from means"),
    )
    figure.add_trace(
        go.Bar(
            x=names,
            **interval_points("y", [row.average for row in rows], GROUP_AVERAGE, " %"),
            name="this run (median)",
            hovertemplate=f"%{{x}}, this run: {INTERVAL_HOVER}<extra></extra>",
        ),
        row=1,
        col=1,
    )
    article = [row for row in rows if row.paper_average is not None]
    figure.add_trace(
        go.Bar(
            x=[label(row.family) for row in article],
            y=[row.paper_average for row in article],
            name="the 2020 article (mean)",
            hovertemplate="%{x}, the 2020 article: %{y:.3~r} % (published figure, no interval)<extra></extra>",
        ),
        row=2,
        col=1,
    )
    for row in rows:
        if row.paper_average is None:
            figure.add_annotation(
                x=label(row.family),
                y=0,
                text="not in the article",
                textangle=-90,
                yanchor="bottom",
                showarrow=False,
                row=2,
                col=1,
            )
    figure.update_layout(
        title=(
            "The article's ratio per group: ms per key ÷ key bits, in % (lower is faster); "
            f"two scales (error bars: {GROUP_AVERAGE.text})"
        ),
        xaxis={"type": "category", "categoryorder": "array", "categoryarray": names},
        xaxis2={"title": "group of curves (this run's order, fastest first)", "type": "category"},
        yaxis={"title": "ratio (%)", "rangemode": "tozero"},
        yaxis2={"title": "ratio (%)", "rangemode": "tozero"},
        height=600,
        showlegend=False,
        margin={"t": 40},
    )
    return plain(figure, legend_below=False)


def equal_security(analysis: EcAnalysis) -> dict[str, Any]:
    """Key generation at each strength: curves, RSA and sodium side by side (log scale)."""
    traces = []
    for kind_name, kind in KINDS.items():
        members = [r for r in analysis.results if _kind(r) == kind and r.scheme.security_bits >= 112]
        traces.append(
            go.Scatter(
                x=[f"{r.scheme.security_bits}-bit" for r in members],
                y=[ms(r.keygen.summary.median_ns) for r in members],
                error_y=_error_bars([r.keygen for r in members]),
                mode="markers",
                marker={"size": 10},
                name=kind_name,
                text=[html.escape(r.scheme.curve) for r in members],
                hovertemplate="%{text}: %{y:.3~r} ms<extra>%{fullData.name}</extra>",
            )
        )
    return figure_data(
        traces,
        {
            "title": "Key generation at equal security (NIST SP 800-57 strength; 112 bits and up)",
            "xaxis": {
                "title": "security strength",
                "type": "category",
                "categoryorder": "array",
                "categoryarray": ["112-bit", "128-bit", "192-bit", "256-bit"],
            },
            "yaxis": {"title": "ms per key (log)", "type": "log"},
        },
    )


# One chart per band of strength (NIST SP 800-57): 80-odd schemes on one chart were 1,500 px tall and
# their ticks ran together on a phone. (key suffix, lowest strength, highest strength)
STRENGTH_BANDS: tuple[tuple[str, int, int], ...] = (
    ("192", 192, 10**6),
    ("128", 128, 191),
    ("112", 112, 127),
    ("80", 80, 111),
    ("below-80", 0, 79),
)


def _strengths(members: list[SchemeResult]) -> str:
    """The strengths a chart holds, in words: '128-bit', '192- and 256-bit', '55- to 65-bit'."""
    found = sorted({r.scheme.security_bits for r in members})
    if len(found) == 1:
        return f"{found[0]}-bit"
    if len(found) == 2:
        return f"{found[0]}- and {found[1]}-bit"
    return f"{found[0]}- to {found[-1]}-bit"


def sign_verify(members: list[SchemeResult]) -> dict[str, Any]:
    """Sign, verify and derive of some schemes (one band of strength), each median with its CI, the
    operations side by side in each row; weakest, then by name, at the bottom."""
    ordered = sorted(members, key=lambda r: (r.scheme.security_bits, r.scheme.curve))
    names = [label(r.scheme.curve) for r in ordered]
    traces = []
    for operation, symbol in OPERATION_SYMBOLS.items():
        having = [r for r in ordered if operation in r.operations]
        if not having:
            continue
        traces.append(
            go.Scatter(
                y=[label(r.scheme.curve) for r in having],
                **interval_points(
                    "x", [time_point(r.operations[operation].summary) for r in having], MEDIAN_IN_RUN, " ms"
                ),
                mode="markers",
                orientation="h",
                marker={"symbol": symbol, "size": 8},
                name=operation,
                hovertemplate=f"%{{y}}, {operation}: {INTERVAL_HOVER}<extra></extra>",
            )
        )
    drawn = [time_point(o.summary) for r in ordered for name, o in r.operations.items() if name in OPERATION_SYMBOLS]
    ends = [end for point in drawn for end in (point.value, point.low, point.high)]
    return figure_data(
        traces,
        {
            "title": (
                f"Sign, verify and derive at {_strengths(ordered)} strength, per scheme (weakest at the bottom; "
                f"error bars: {MEDIAN_IN_RUN.text})"
            ),
            "xaxis": {"title": "ms per operation (log)", **decade_ticks(ends)},
            # dtick 1: a label on every row; Plotly would otherwise skip every other curve's name.
            "yaxis": {"categoryorder": "array", "categoryarray": names, "automargin": True, "dtick": 1},
            # The operations of a scheme side by side in its row, so their error bars do not overlap.
            "scattermode": "group",
            "height": max(320, 26 * len(names) + 170),
        },
    )


def sign_verify_charts(analysis: EcAnalysis) -> dict[str, dict[str, Any]]:
    """The schemes with more than key generation timed, one chart per band of strength that has any."""
    timed = [r for r in analysis.results if len(r.operations) > 1]
    charts = {}
    for suffix, lowest, highest in STRENGTH_BANDS:
        members = [r for r in timed if lowest <= r.scheme.security_bits <= highest]
        if members:
            charts[f"ec-sign-verify-{suffix}"] = sign_verify(members)
    return charts


def all_figures(analysis: EcAnalysis) -> dict[str, dict[str, Any]]:
    """In the page's order: key generation, then sign, verify and derive per band of strength."""
    figures: dict[str, dict[str, Any]] = {}
    if analysis.curves:
        figures["ec-keygen-size"] = keygen_vs_size(analysis)
    if analysis.results:
        figures["ec-equal-security"] = equal_security(analysis)
    if analysis.curves:
        figures["ec-group-ratio"] = group_ratios(analysis)
    if analysis.results:
        figures |= sign_verify_charts(analysis)
    return figures
