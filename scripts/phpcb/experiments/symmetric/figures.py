"""Plotly figures for the symmetric page, as plain JSON-ready dicts (the page script applies the palette)."""

from __future__ import annotations

import html
import re
from typing import Any

import plotly.graph_objects as go

from phpcb.experiments.symmetric.analysis import SymmetricAnalysis
from phpcb.presentation.formatting import size
from phpcb.presentation.plotting import (
    MEDIAN_IN_RUN,
    Spread,
    figure_data,
    interval_error_bars,
    significant,
    throughput_error_bars,
)

# The chart ranks only the ciphers of the race the policy recommends (the page's question is which to
# use); every other one is in the inventory table, with its verdict. Its legend filters by family.
FAMILIES = (
    ("AES", re.compile(r"^aes-"), "#1565c0"),
    ("ARIA, Camellia, SM4", re.compile(r"^(aria|camellia|sm4)-"), "#6a1b9a"),
    ("ChaCha20", re.compile(r"^chacha20"), "#00838f"),
    (
        "legacy: DES, 3DES, Blowfish, CAST5, IDEA, RC2, RC4, SEED",
        re.compile(r"^(des|bf|cast|idea|rc2|rc4|seed)"),
        "#c62828",
    ),
    ("other", re.compile(r"."), "#757575"),
)


# The engines' ratio: OpenSSL's median time over mcrypt's, its interval within this run.
RATIO_IN_RUN = Spread("the ratio of medians")


def family(cipher: str) -> str:
    return next(name for name, pattern, _ in FAMILIES if pattern.search(cipher))


def engine_speedup(analysis: SymmetricAnalysis) -> dict[str, Any]:
    traces = []
    for operation in ("encrypt", "decrypt"):
        for bits in (128, 192, 256):
            rows = [
                c for c in analysis.engines if (c.subject.key.key_bits, c.subject.key.operation) == (bits, operation)
            ]
            traces.append(
                go.Bar(
                    x=[size(c.subject.key.payload_bytes) for c in rows],
                    y=[significant(c.ratio.value) for c in rows],
                    error_y=interval_error_bars([c.ratio for c in rows]),
                    name=f"AES-{bits}-CBC {operation}",
                )
            )
    return figure_data(
        traces,
        {
            "title": f"OpenSSL's speed-up over mcrypt (× faster; error bars: {RATIO_IN_RUN.text})",
            "barmode": "group",
            "xaxis": {"title": "payload", "type": "category"},
            "yaxis": {"title": "× faster than mcrypt"},
        },
    )


def recommended_ranking(analysis: SymmetricAnalysis) -> list[Any]:
    """The race's ciphers a reader may use, fastest first: the recommended ones that were timed."""
    return [row for row in analysis.ranking if row.verdict.recommendable and row.case is not None]


def cipher_ranking(analysis: SymmetricAnalysis) -> dict[str, Any]:
    """Horizontal bars of the recommended ciphers, fastest on top, one trace per cipher family so the
    legend filters them; each bar's hover gives its verdict."""
    traces = []
    ranked = recommended_ranking(analysis)
    order = [row.cipher for row in reversed(ranked)]
    for name, _, colour in FAMILIES:
        rows = [row for row in ranked if family(row.cipher) == name]
        if not rows:
            continue
        traces.append(
            go.Bar(
                y=[html.escape(row.cipher) for row in rows],
                x=[round(row.case.mb_per_s, 3) for row in rows if row.case is not None],
                error_x=throughput_error_bars([row.case for row in rows if row.case is not None]),
                customdata=[row.verdict.text for row in rows],
                orientation="h",
                marker={"color": colour},
                name=name,
                hovertemplate="%{y}: %{x:,.3~r} MB/s, %{customdata}<extra>%{fullData.name}</extra>",
            )
        )
    # The same axis on top as well: with a hundred ciphers the bottom one is 2,000 px down.
    traces.append(go.Scatter(x=[], y=[], xaxis="x2", showlegend=False, hoverinfo="skip", name="top axis", visible=True))
    axis_title = "MB/s (bytes encrypted and decrypted)"
    return figure_data(
        traces,
        {
            "title": (
                f"The recommended ciphers of the race: encrypt + decrypt throughput at {size(200 * 1024)} "
                "(click the legend to filter by family)"
            ),
            "yaxis": {"categoryorder": "array", "categoryarray": [html.escape(n) for n in order], "automargin": True},
            "xaxis": {"title": axis_title, "type": "log"},
            "xaxis2": {"type": "log", "overlaying": "x", "side": "top", "matches": "x"},
            # The legend (the cipher families) at the very top, above the top axis.
            "legend": {"orientation": "h", "yanchor": "top", "y": 1, "yref": "container", "x": 0},
            "margin": {"t": 90},
            "height": max(500, 16 * len(order) + 200),
            "barmode": "overlay",
        },
        legend_below=False,
    )


def blowfish_modes(analysis: SymmetricAnalysis) -> dict[str, Any]:
    traces = []
    labels = list(dict.fromkeys(c.key.label for c in analysis.blowfish))
    for label in labels:
        cases = [c for c in analysis.blowfish if c.key.label == label and c.key.operation == "encrypt"]
        traces.append(
            go.Bar(
                x=[size(c.key.payload_bytes) for c in cases],
                y=[round(c.mb_per_s, 3) for c in cases],
                error_y=throughput_error_bars(cases),
                name=html.escape(label),
            )
        )
    return figure_data(
        traces,
        {
            "title": f"Blowfish encryption by engine and mode (error bars: {MEDIAN_IN_RUN.text})",
            "barmode": "group",
            "xaxis": {"title": "payload", "type": "category"},
            "yaxis": {"title": "MB/s (log)", "type": "log"},
        },
    )


def all_figures(analysis: SymmetricAnalysis) -> dict[str, dict[str, Any]]:
    figures: dict[str, dict[str, Any]] = {}
    if analysis.engines:
        figures["symmetric-engines"] = engine_speedup(analysis)
    if recommended_ranking(analysis):
        figures["symmetric-ranking"] = cipher_ranking(analysis)
    if analysis.blowfish:
        figures["symmetric-blowfish"] = blowfish_modes(analysis)
    return figures
