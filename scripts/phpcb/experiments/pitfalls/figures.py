"""Plotly figures for the pitfalls page, as plain JSON-ready dicts (the page script applies the palette)."""

from __future__ import annotations

from typing import Any

import plotly.graph_objects as go

from phpcb.experiments.pitfalls.analysis import PitfallsAnalysis
from phpcb.presentation.plotting import (
    INTERVAL_HOVER,
    Spread,
    figure_data,
    interval_points,
    label,
    vertical_line,
)

SLOW_OVER_FAST = Spread("the ratio of medians", method="bootstrap")
# A pitfall's row is named by its title, as the page's headings and summary name it, in lines short
# enough to leave a phone's chart some width.
LABEL_WIDTH = 30


def ratios(analysis: PitfallsAnalysis) -> dict[str, Any]:
    """Each pitfall's slow time over its fast time, with the 95% CI."""
    results = list(reversed(analysis.results))
    bars = go.Bar(
        y=[label(r.entry.title, LABEL_WIDTH) for r in results],
        **interval_points("x", [r.ratio for r in results], SLOW_OVER_FAST, "×"),
        orientation="h",
        name="slow way ÷ fast way",
        hovertemplate=f"%{{y}}<br>slow ÷ fast: {INTERVAL_HOVER}<extra></extra>",
    )
    return figure_data(
        [bars],
        {
            "shapes": [vertical_line(1, "dot")],
            "title": f"How many times longer the slow way takes, per unit of work (error bars: {SLOW_OVER_FAST.text})",
            "xaxis": {"title": "slow ÷ fast (log)", "type": "log"},
            # No axis title: the rows' names say what they are, and a title beside them overlapped the longest.
            "yaxis": {"type": "category", "automargin": True},
            "showlegend": False,
            "height": max(420, 70 * len(results) + 140),
        },
        legend_below=False,
    )


def all_figures(analysis: PitfallsAnalysis) -> dict[str, dict[str, Any]]:
    return {"pitfalls-ratios": ratios(analysis)} if analysis.results else {}
