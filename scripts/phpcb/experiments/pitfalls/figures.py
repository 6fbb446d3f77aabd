"""Plotly figures for the pitfalls page, as plain JSON-ready dicts (the page script applies the palette)."""

from __future__ import annotations

from typing import Any

import plotly.graph_objects as go

from phpcb.experiments.pitfalls.analysis import PitfallsAnalysis
from phpcb.presentation.plotting import interval_error_bars, plain, significant


def ratios(analysis: PitfallsAnalysis) -> dict[str, Any]:
    """Each pitfall's slow time over its fast time, with the 95% CI."""
    results = list(reversed(analysis.results))
    figure = go.Figure(
        go.Bar(
            y=[r.key for r in results],
            x=[significant(r.ratio.value) for r in results],
            error_x=interval_error_bars([r.ratio for r in results]),
            orientation="h",
            name="slow way ÷ fast way",
        )
    )
    figure.add_vline(x=1, line_dash="dot")
    figure.update_layout(
        title="How many times longer the slow way takes, per unit of work (error bars: 95% CI)",
        xaxis={"title": "slow ÷ fast (log)", "type": "log"},
        yaxis={"title": "pitfall", "type": "category"},
        showlegend=False,
        margin={"l": 190},
    )
    return plain(figure, legend_below=False)


def all_figures(analysis: PitfallsAnalysis) -> dict[str, dict[str, Any]]:
    return {"pitfalls-ratios": ratios(analysis)} if analysis.results else {}
