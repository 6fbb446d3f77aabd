"""What every figure shares: JSON-ready data without Plotly's template, twelve distinct colours, points
with their interval and the words that say which interval it is, labels a reader knows, log ticks that fit.

A figure is data made from its traces and layout at once (figure_data): go.Figure's add_trace and
update_layout validate and copy the figure again at each call, which made a build's figures cost more
than its statistics."""

from __future__ import annotations

import html
import json
import math
import textwrap
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Literal, Protocol

import plotly.graph_objects as go
from _plotly_utils.utils import PlotlyJSONEncoder, convert_to_base64
from markupsafe import Markup, escape
from plotly.basedatatypes import BaseTraceType

from phpcb.presentation.formatting import value_ci
from phpcb.statistics.stats import CONFIDENCE

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


@dataclass(frozen=True)
class Spread:
    """Which interval a chart draws, in words for its hover and title: '95% CI of the median, within
    this run'. A within-run interval describes the samples, not what a rerun would give."""

    statistic: str  # "the median", "the ratio of medians", ...
    scope: str = "within this run"
    method: str = ""  # how the interval is made, where the statistic does not say: "bootstrap"
    confidence: float = CONFIDENCE

    @property
    def text(self) -> str:
        method = f" {self.method}" if self.method else ""
        return f"{self.confidence:.0%}{method} CI of {self.statistic}, {self.scope}"


MEDIAN_IN_RUN = Spread("the median")


@dataclass(frozen=True)
class Point:
    """An estimate and its interval, in the chart's unit (an end may be infinite: too few samples)."""

    value: float
    low: float
    high: float


def time_point(summary: HasSummary) -> Point:
    """A summary's median and its CI, in ms."""
    return Point(ms(summary.median_ns), ms(summary.ci_low_ns), ms(summary.ci_high_ns))


# Significant digits a point and its error bars keep: a time in ms to the nanosecond up to 10 s, and no float
# noise (0.30000000000000004).
POINT_DIGITS = 10


def _side(distance: float) -> float | None:
    """An error bar's length; None (no bar) where too few samples leave that end unbounded."""
    return significant(distance, POINT_DIGITS) if math.isfinite(distance) else None


def interval_points(
    axis: Literal["x", "y"], points: Sequence[HasInterval], spread: Spread, unit: str = ""
) -> dict[str, Any]:
    """A trace's keyword arguments for estimates with an interval: the values on `axis`, their error
    bars, and per point (customdata) the value with its interval and which interval it is, for a
    hovertemplate to show with INTERVAL_HOVER."""
    return {
        axis: [significant(p.value, POINT_DIGITS) for p in points],
        f"error_{axis}": asymmetric_error_bars(
            [_side(p.high - p.value) for p in points], [_side(p.value - p.low) for p in points]
        ),
        "customdata": [f"{value_ci(p.value, p.low, p.high, unit)}<br>{spread.text}" for p in points],
    }


INTERVAL_HOVER = "%{customdata}"


def label(text: str, width: int = 0) -> str:
    """Text from data as a chart label: escaped (Plotly reads its labels as HTML), and wrapped into
    lines of at most `width` characters where a width is given (a long name on a phone). Its CSV
    reads it back as plain text (chart_data.plain_label)."""
    lines = textwrap.wrap(text, width, break_on_hyphens=False) if width else [text]
    return "<br>".join(html.escape(line) for line in lines)


def _compact(value: float) -> str:
    if value >= 1e6:
        return f"{value / 1e6:g}M"
    if value >= 1e3:
        return f"{value / 1e3:g}k"
    return f"{value:g}"


MAX_LOG_TICKS = 6


def decade_ticks(values: Iterable[float]) -> dict[str, Any]:
    """A log axis whose ticks fit a phone: powers of ten across `values` (each end of each interval
    included), with 2 and 5 between them where the values span a decade or less, and the range the
    ticks span. Plotly's own 1-2-5 ticks over several decades ran together at 390 px."""
    finite = [v for v in values if v > 0 and math.isfinite(v)]
    if not finite:
        return {"type": "log"}
    low, high = math.floor(math.log10(min(finite))), math.ceil(math.log10(max(finite)))
    high = max(high, low + 1)
    if high - low <= 1:
        ticks = [float(f"{step * 10.0**low:.12g}") for step in (1, 2, 5)] + [10.0**high]
    else:
        # Many decades: every stride-th power of ten, the last one at or above the highest value.
        stride = math.ceil((high - low) / (MAX_LOG_TICKS - 1))
        powers = range(low, high + stride, stride)
        high = powers[-1]
        ticks = [float(f"{10.0**power:.12g}") for power in powers]
    return {
        "type": "log",
        "tickmode": "array",
        "tickvals": ticks,
        "ticktext": [_compact(t) for t in ticks],
        "range": [low - 0.02, high + 0.02],
    }


def speedup_ticks(values: Iterable[float]) -> dict[str, Any]:
    """A log axis of how many times faster (below 1: slower), 1 always in range, each tick in words
    ('50× slower', '10× faster'): 0.02 on a 'times faster' axis reads as nothing, and a bar's length
    from 0 hid that 0.02 and 50 are the same distance from no difference."""
    axis = decade_ticks([1.0, *values])
    if "tickvals" in axis:
        axis["ticktext"] = [_speedup_tick(t) for t in axis["tickvals"]]
        axis["tickangle"] = 0  # two short lines fit a phone; Plotly turned them on end
    return axis


def _speedup_tick(value: float) -> str:
    if value == 1:
        return "same"
    # Two lines: a phone's axis has room for a number, not for a number and a word side by side.
    return f"{_compact(value)}×<br>faster" if value > 1 else f"{_compact(float(f'{1 / value:.12g}'))}×<br>slower"


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
    if figure.frames:
        data: dict[str, Any] = json.loads(figure.to_json())
        data["layout"].pop("template", None)
        return _site_styled(data, legend_below)
    return _site_styled(_as_json(figure._data, figure._layout), legend_below)


def figure_data(traces: Sequence[BaseTraceType], layout: dict[str, Any], legend_below: bool = True) -> dict[str, Any]:
    """What plain(go.Figure(traces, layout=layout), legend_below) gives, without making the figure:
    go.Figure validates each trace a second time and copies Plotly's default template in, which plain
    leaves out, for most of a figure's cost."""
    return _site_styled(_as_json([trace._props for trace in traces], go.Layout(layout)._props), legend_below)


def sizes_against_limits(
    title: str, names: list[str], sizes: dict[int, list[int]], limits: Sequence[tuple[str, float]]
) -> dict[str, Any]:
    """Bytes per algorithm (`names`), a bar per payload (`sizes`: each payload's sizes in the names' order),
    against dashed, labelled limits (a cookie's, a header's): the JWT and PQ pages' token-size chart."""
    traces = [go.Bar(x=names, y=values, name=f"{payload}-character payload") for payload, values in sizes.items()]
    return figure_data(
        traces,
        {
            **labelled_horizontal_lines(limits, "dash"),
            "title": title,
            "barmode": "group",
            "xaxis": {"title": "algorithm", "type": "category"},
            "yaxis": {"title": "bytes"},
        },
    )


def horizontal_line(y: float, dash: str) -> dict[str, Any]:
    """A layout shape across the whole plot at `y`: what go.Figure's add_hline adds, without the figure."""
    return {"type": "line", "line": {"dash": dash}, "xref": "x domain", "x0": 0, "x1": 1, "yref": "y", "y0": y, "y1": y}


def horizontal_line_label(y: float, text: str) -> dict[str, Any]:
    """The annotation add_hline puts above its line's left end (annotation_position="top left")."""
    return {
        "showarrow": False,
        "text": text,
        "xref": "x domain",
        "x": 0,
        "xanchor": "left",
        "yref": "y",
        "y": y,
        "yanchor": "bottom",
    }


def labelled_horizontal_lines(lines: Sequence[tuple[str, float]], dash: str) -> dict[str, list[dict[str, Any]]]:
    """A layout's shapes and annotations for reference lines across the plot, each (label, y) labelled above
    its left end: add_hline(y, annotation_text=label, annotation_position="top left") for each."""
    return {
        "shapes": [horizontal_line(y, dash) for _, y in lines],
        "annotations": [horizontal_line_label(y, text) for text, y in lines],
    }


def vertical_line(x: float, dash: str) -> dict[str, Any]:
    """A layout shape up the whole plot at `x`: what go.Figure's add_vline adds, without the figure."""
    return {"type": "line", "line": {"dash": dash}, "xref": "x", "x0": x, "x1": x, "yref": "y domain", "y0": 0, "y1": 1}


def _site_styled(data: dict[str, Any], legend_below: bool) -> dict[str, Any]:
    """The figure's data with the site's palette, legend and height, dots on log axes, hover digits. Set in
    the data where update_layout would put them on the figure (appended, the legend merged into the
    figure's own): update_layout costs more than serialising the figure."""
    layout = data["layout"]
    layout["colorway"] = list(COLORWAY)
    if legend_below:
        layout.setdefault("legend", {}).update(LEGEND_BELOW)
    layout.setdefault("height", 520)
    dots_on_log_axes(data)
    hover_like_the_tables(layout)
    return data


def _as_json(traces: Sequence[dict[str, Any]], layout: dict[str, Any]) -> dict[str, Any]:
    """What json.loads(go.Figure(traces, layout).to_json()) gives, less the layout's template. to_json
    deep-copies the whole figure, the template first (Plotly's default: most of a figure's serialising
    time), and its encoder looks for orjson with a failed import every time. Here the template is left
    out, only the containers are copied (all that to_dict's convert_to_base64 and to_json's removal of
    trace uids change), and the copy goes through the encoder to_json uses (its escaping of <, > and /
    is undone by json.loads)."""
    shown = {
        "data": [{key: value for key, value in trace.items() if key != "uid"} for trace in traces],
        "layout": {key: value for key, value in layout.items() if key != "template"},
    }
    foreign: list[Any] = []
    copied = _containers_copied(shown, foreign)
    if foreign:  # an array (numpy's, say) for convert_to_base64 to encode; for plain values it is a no-op
        convert_to_base64(copied)
    result: dict[str, Any] = json.loads(json.dumps(copied, cls=PlotlyJSONEncoder))
    return result


_JSON_VALUES = frozenset({str, int, float, bool, type(None)})


def _containers_copied(value: Any, foreign: list[Any]) -> Any:
    """`value` with its dicts, lists and tuples copied and everything else shared; values of any type but
    JSON's own are added to `foreign`."""
    if isinstance(value, dict):
        return {key: _containers_copied(item, foreign) for key, item in value.items()}
    if isinstance(value, list):
        return [_containers_copied(item, foreign) for item in value]
    if isinstance(value, tuple):
        return tuple(_containers_copied(item, foreign) for item in value)
    if type(value) not in _JSON_VALUES:
        foreign.append(value)
    return value


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
