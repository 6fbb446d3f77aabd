"""What every figure shares: JSON-ready data without Plotly's template, twelve distinct colours."""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from typing import Any, Protocol

import plotly.graph_objects as go
from markupsafe import Markup, escape

# Twelve distinguishable colours (Plotly's default cycle has ten, and there are twelve variants).
COLORWAY = [
    "#4e79a7",
    "#f28e2b",
    "#e15759",
    "#76b7b2",
    "#59a14f",
    "#edc948",
    "#b07aa1",
    "#ff9da7",
    "#9c755f",
    "#bab0ac",
    "#17becf",
    "#8c564b",
]
LEGEND_BELOW = {"orientation": "h", "yanchor": "top", "y": -0.25, "xanchor": "left", "x": 0}


def asymmetric_error_bars(above: Sequence[float | None], below: Sequence[float | None]) -> dict[str, Any]:
    """Plotly error bars from the distance of each CI's ends to its point (None: no bar)."""
    return {"type": "data", "symmetric": False, "array": list(above), "arrayminus": list(below)}


class HasThroughput(Protocol):
    @property
    def mb_per_s(self) -> float: ...

    @property
    def mb_per_s_ci(self) -> tuple[float, float]: ...


def throughput_error_bars(cases: Sequence[HasThroughput]) -> dict[str, Any]:
    """Error bars from each case's throughput CI."""
    return asymmetric_error_bars(
        [round(c.mb_per_s_ci[1] - c.mb_per_s, 3) for c in cases],
        [round(c.mb_per_s - c.mb_per_s_ci[0], 3) for c in cases],
    )


class HasSummary(Protocol):
    @property
    def median_ns(self) -> float: ...

    @property
    def ci_low_ns(self) -> float: ...

    @property
    def ci_high_ns(self) -> float: ...


def significant(value: float, digits: int = 4) -> float:
    """Rounded to significant digits, not decimals: a ratio of 0.0004 keeps its error bar."""
    return float(f"{value:.{digits}g}") if value and math.isfinite(value) else value


def ms(ns: float) -> float:
    """Nanoseconds as milliseconds for a chart axis, to the nanosecond."""
    return round(ns / 1e6, 6)


def _bar(ns: float) -> float | None:
    """A CI side in ms; None (no bar) where too few samples leave the CI unbounded."""
    return ms(ns) if math.isfinite(ns) else None


def time_error_bars(summaries: Sequence[HasSummary]) -> dict[str, Any]:
    """Error bars in ms from each summary's CI of the median."""
    return asymmetric_error_bars(
        [_bar(s.ci_high_ns - s.median_ns) for s in summaries],
        [_bar(s.median_ns - s.ci_low_ns) for s in summaries],
    )


class HasInterval(Protocol):
    @property
    def value(self) -> float: ...

    @property
    def low(self) -> float: ...

    @property
    def high(self) -> float: ...


def interval_error_bars(intervals: Sequence[HasInterval]) -> dict[str, Any]:
    """Error bars from each estimate's CI (a ratio of medians, a group average)."""
    return asymmetric_error_bars(
        [significant(i.high - i.value) for i in intervals],
        [significant(i.value - i.low) for i in intervals],
    )


def dots_on_log_axes(data: dict[str, Any]) -> None:
    """A bar's length means nothing on a log axis (it starts at an arbitrary 10^k): a bar trace whose
    value axis is logarithmic becomes dots, grouped side by side like the bars were."""
    layout = data["layout"]
    changed = False
    for index, trace in enumerate(data["data"]):
        if trace.get("type") != "bar":
            continue
        value_axis = layout.get("xaxis" if trace.get("orientation") == "h" else "yaxis") or {}
        if value_axis.get("type") != "log":
            continue
        dots = {key: value for key, value in trace.items() if key in _DOT_KEYS}
        colour = (trace.get("marker") or {}).get("color")
        dots.update(type="scatter", mode="markers", marker={"size": 9, **({"color": colour} if colour else {})})
        data["data"][index] = dots
        changed = True
    if changed:
        layout["scattermode"] = "group"


_DOT_KEYS = {
    "x",
    "y",
    "name",
    "orientation",
    "error_x",
    "error_y",
    "text",
    "hovertext",
    "hovertemplate",
    "customdata",
    "offsetgroup",
    "legendgroup",
    "showlegend",
    "visible",
    "xaxis",
    "yaxis",
}


def plain(figure: go.Figure, legend_below: bool = True) -> dict[str, Any]:
    """The figure as JSON-ready data, without Plotly's template: colours come from the site's palette."""
    figure.update_layout(colorway=COLORWAY)
    if legend_below:
        figure.update_layout(legend=LEGEND_BELOW)
    if figure.layout.height is None:
        figure.update_layout(height=520)
    data: dict[str, Any] = json.loads(figure.to_json())
    data["layout"].pop("template", None)
    dots_on_log_axes(data)
    hover_like_the_tables(data["layout"])
    return data


def hover_like_the_tables(layout: dict[str, Any]) -> None:
    """Hover labels with three significant digits (9.72 ms, not 9.724706), as the tables print them."""
    for name in ("xaxis", "yaxis"):
        axis = layout.setdefault(name, {})
        if axis.get("type") != "category":
            axis.setdefault("hoverformat", ".3~r")


def figure_json(figure: dict[str, Any]) -> str:
    return json.dumps(figure, separators=(",", ":"), sort_keys=True)


def figure_attribute(figure: dict[str, Any]) -> Markup:
    """A figure's JSON for a data-figure attribute of a raw HTML block: HTML-escaped only, since
    Markdown leaves the block alone."""
    return escape(figure_json(figure))


def figure_title(figure: dict[str, Any]) -> str:
    """The figure's title, as charts.js puts it above the chart: what a collapsed chart's summary says."""
    title = figure.get("layout", {}).get("title")
    text = title.get("text") if isinstance(title, dict) else title
    return str(text) if text else "Chart"
