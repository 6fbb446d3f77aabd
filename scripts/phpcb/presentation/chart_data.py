"""What each chart plots, as CSV beside its page (the chart's "data (CSV)" link): readers take the
numbers, not a screenshot (the runs' own files are published too: presentation/downloads.py).

A chart's CSV is read back from the figure itself (phpcb.presentation.plotting.plain's JSON), so it holds exactly
what is drawn: per series and point, the x and y values and, where the chart has error bars, the 95 %
CI ends on that axis; a heatmap gives x, y and z.
"""

from __future__ import annotations

import csv
import html
import io
from collections.abc import Iterable, Sequence
from typing import Any


def chart_id(name: str) -> str:
    """The HTML id of a chart (its permalink), kept apart from the headings' ids."""
    return f"chart-{name}"


def page_directory(page: str) -> str:
    """Where a page's own files go: `experiments/aead.md` is served at `experiments/aead/`."""
    return page.removesuffix(".md").removesuffix("index").rstrip("/")


def csv_uri(page: str, name: str) -> str:
    directory = page_directory(page)
    return f"{directory}/{name}.csv" if directory else f"{name}.csv"


def _axis_title(layout: dict[str, Any], axis: str) -> str:
    title = (layout.get(axis) or {}).get("title")
    text = title.get("text") if isinstance(title, dict) else title
    return f"{axis[0]} ({text})" if text else axis[0]


def plain_label(value: Any) -> Any:
    """A chart's label as plain text (plotting.label escapes it and breaks long ones into lines):
    lines joined, entities read; a number stays a number."""
    return html.unescape(value.replace("<br>", " ")) if isinstance(value, str) else value


def _tidy(value: float) -> float:
    """No float noise from the subtraction (785.4720000000001): the chart's own precision."""
    return float(f"{value:.7g}")


def _errors(trace: dict[str, Any], axis: str, values: Sequence[Any]) -> tuple[list[Any], list[Any]] | None:
    bars = trace.get(f"error_{axis}")
    if not bars or "array" not in bars:
        return None
    above = bars.get("array") or []
    below = bars.get("arrayminus", above) or []
    lows, highs = [], []
    for index, value in enumerate(values):
        up = above[index] if index < len(above) else None
        down = below[index] if index < len(below) else None
        numeric = isinstance(value, int | float)
        lows.append(_tidy(value - down) if numeric and down is not None else "")
        highs.append(_tidy(value + up) if numeric and up is not None else "")
    return lows, highs


def _trace_rows(trace: dict[str, Any]) -> Iterable[dict[str, Any]]:
    # A trace a chart's menu shows with others names what it belongs to in its meta ("sodium argon2id,
    # t=3" for "p=2"): the CSV names the series in full.
    name = ", ".join(str(part) for part in (trace.get("meta"), trace.get("name")) if part)
    if trace.get("type") == "heatmap":
        xs, ys, zs = trace.get("x") or [], trace.get("y") or [], trace.get("z") or []
        for row, y in zip(zs, ys, strict=False):
            for z, x in zip(row, xs, strict=False):
                yield {
                    "series": plain_label(name),
                    "x": plain_label(x),
                    "y": plain_label(y),
                    "z": "" if z is None else z,
                }
        return
    xs, ys = list(trace.get("x") or []), list(trace.get("y") or [])
    x_ci, y_ci = _errors(trace, "x", xs), _errors(trace, "y", ys)
    for index, (x, y) in enumerate(zip(xs, ys, strict=False)):
        row: dict[str, Any] = {"series": plain_label(name), "x": plain_label(x), "y": plain_label(y)}
        if x_ci:
            row["x_ci_low"], row["x_ci_high"] = x_ci[0][index], x_ci[1][index]
        if y_ci:
            row["y_ci_low"], row["y_ci_high"] = y_ci[0][index], y_ci[1][index]
        yield row


def figure_csv(figure: dict[str, Any]) -> str:
    """The figure's plotted values as CSV, one row per point (per cell for a heatmap)."""
    rows = [row for trace in figure.get("data", []) for row in _trace_rows(trace)]
    columns = [
        c
        for c in ("series", "x", "y", "z", "x_ci_low", "x_ci_high", "y_ci_low", "y_ci_high")
        if any(c in r for r in rows)
    ]
    layout = figure.get("layout", {})
    names = {"x": _axis_title(layout, "xaxis"), "y": _axis_title(layout, "yaxis")}
    header = [names.get(c, c) for c in columns]
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(header)
    for row in rows:
        writer.writerow([row.get(column, "") for column in columns])
    return out.getvalue()


def chart_files(page: str, figures: dict[str, dict[str, Any]]) -> dict[str, str]:
    """uri → CSV for every chart of a page."""
    return {csv_uri(page, name): figure_csv(figure) for name, figure in figures.items()}
