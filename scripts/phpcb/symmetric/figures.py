"""Plotly figures for the symmetric page, as plain JSON-ready dicts (the page script applies the palette)."""

from __future__ import annotations

import html
from typing import Any

import plotly.graph_objects as go

from ..formatting import size
from ..plotting import interval_error_bars, plain, significant, throughput_error_bars
from .analysis import SymmetricAnalysis

SECURITY_COLOURS = {"recommended": "#2e7d32", "acceptable": "#f9a825", "not_recommended": "#c62828"}


def engine_speedup(analysis: SymmetricAnalysis) -> dict[str, Any]:
    figure = go.Figure()
    for operation in ("encrypt", "decrypt"):
        for bits in (128, 192, 256):
            rows = [
                c for c in analysis.engines if (c.subject.key.key_bits, c.subject.key.operation) == (bits, operation)
            ]
            figure.add_trace(
                go.Bar(
                    x=[size(c.subject.key.payload_bytes) for c in rows],
                    y=[significant(c.ratio.value) for c in rows],
                    error_y=interval_error_bars([c.ratio for c in rows]),
                    name=f"AES-{bits}-CBC {operation}",
                )
            )
    figure.update_layout(
        title="OpenSSL's speed-up over mcrypt (× faster; error bars: 95% CI)",
        barmode="group",
        xaxis={"title": "payload", "type": "category"},
        yaxis={"title": "× faster than mcrypt"},
    )
    return plain(figure)


def cipher_ranking(analysis: SymmetricAnalysis) -> dict[str, Any]:
    """Horizontal bars, fastest on top, one trace per security status so the legend filters them."""
    figure = go.Figure()
    order = [row.cipher for row in reversed(analysis.ranking)]
    for status, colour in SECURITY_COLOURS.items():
        rows = [row for row in analysis.ranking if row.verdict.status == status and row.case is not None]
        figure.add_trace(
            go.Bar(
                y=[html.escape(row.cipher) for row in rows],
                x=[round(row.case.mb_per_s, 3) for row in rows if row.case is not None],
                error_x=throughput_error_bars([row.case for row in rows if row.case is not None]),
                orientation="h",
                marker={"color": colour},
                name=status.replace("_", " "),
                hovertemplate="%{y}: %{x:,.3~r} MB/s<extra>%{fullData.name}</extra>",
            )
        )
    # The same axis on top as well: with a hundred ciphers the bottom one is 2,000 px down.
    figure.add_trace(
        go.Scatter(x=[], y=[], xaxis="x2", showlegend=False, hoverinfo="skip", name="top axis", visible=True)
    )
    axis_title = "MB/s (bytes encrypted and decrypted)"
    figure.update_layout(
        title=f"Every OpenSSL cipher: encrypt + decrypt throughput at {size(200 * 1024)} (click the legend to filter)",
        yaxis={"categoryorder": "array", "categoryarray": [html.escape(n) for n in order], "automargin": True},
        xaxis={"title": axis_title, "type": "log"},
        xaxis2={"type": "log", "overlaying": "x", "side": "top", "matches": "x"},
        # The legend (the security verdicts) at the very top, above the top axis.
        legend={"orientation": "h", "yanchor": "top", "y": 1, "yref": "container", "x": 0},
        margin={"t": 90},
        height=max(500, 16 * len(order) + 200),
        barmode="overlay",
    )
    return plain(figure, legend_below=False)


def blowfish_modes(analysis: SymmetricAnalysis) -> dict[str, Any]:
    figure = go.Figure()
    labels = list(dict.fromkeys(c.key.label for c in analysis.blowfish))
    for label in labels:
        cases = [c for c in analysis.blowfish if c.key.label == label and c.key.operation == "encrypt"]
        figure.add_trace(
            go.Bar(
                x=[size(c.key.payload_bytes) for c in cases],
                y=[round(c.mb_per_s, 3) for c in cases],
                error_y=throughput_error_bars(cases),
                name=html.escape(label),
            )
        )
    figure.update_layout(
        title="Blowfish encryption by engine and mode (error bars: 95% CI)",
        barmode="group",
        xaxis={"title": "payload", "type": "category"},
        yaxis={"title": "MB/s (log)", "type": "log"},
    )
    return plain(figure)


def all_figures(analysis: SymmetricAnalysis) -> dict[str, dict[str, Any]]:
    figures: dict[str, dict[str, Any]] = {}
    if analysis.engines:
        figures["symmetric-engines"] = engine_speedup(analysis)
    if analysis.ranking:
        figures["symmetric-ranking"] = cipher_ranking(analysis)
    if analysis.blowfish:
        figures["symmetric-blowfish"] = blowfish_modes(analysis)
    return figures
