"""Plotly figures for the argon2 page, as plain JSON-ready dicts (the page script applies the palette)."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import plotly.graph_objects as go

from phpcb.experiments.argon2.analysis import Argon2Analysis, Cell, CellKey
from phpcb.presentation.formatting import value_ci
from phpcb.presentation.plotting import (
    COLORWAY,
    INTERVAL_HOVER,
    MEDIAN_IN_RUN,
    Spread,
    figure_data,
    interval_points,
    label,
    time_point,
)

CPU_OVER_WALL = Spread("CPU ÷ wall", method="paired-sample")
# Each interface its line, each variant its marker: two series with the same times (sodium's argon2id
# and argon2i) stay visible, one marker drawn open around the other.
INTERFACE_DASH = {"password_hash": "solid", "sodium": "dash", "cli": "dot"}
VARIANT_MARKER = {
    "argon2id": {"symbol": "circle", "size": 7},
    "argon2i": {"symbol": "diamond-open", "size": 13, "line": {"width": 2}},
    "argon2d": {"symbol": "square-open", "size": 11, "line": {"width": 2}},
}


def _picker(labels: list[str], owners: list[int]) -> list[dict[str, Any]]:
    """A menu at the top of the chart that shows one choice's traces: `owners[i]` is the label of trace i."""
    buttons = [
        {"label": name, "method": "update", "args": [{"visible": [owner == i for owner in owners]}]}
        for i, name in enumerate(labels)
    ]
    # The picker at the top of the chart (the title is the page's caption above it).
    return [{"buttons": buttons, "direction": "down", "x": 0, "xanchor": "left", "y": 1.02, "yanchor": "bottom"}]


def _cell_hover(cell: Cell | None) -> str:
    """A heatmap cell's hover: its median with the interval and which interval it is, and its status."""
    if cell is None:
        return "not measured"
    status = f"status: {label(cell.status)}{' (more threads than cores)' if cell.oversubscribed else ''}"
    if cell.wall is None:
        return status
    point = time_point(cell.wall)
    return f"{value_ci(point.value, point.low, point.high, ' ms')}, {MEDIAN_IN_RUN.text}<br>{status}"


@dataclass(frozen=True)
class Answer:
    """What the page's answer picks: the budget and the cell (None: nothing fits), for the heatmap to
    open on and mark, and the cells that fit the budget by the rule the pick is made by (picks.py: their
    interval lies within it), for the line around them."""

    budget_ms: int
    cell: Cell | None
    fits: frozenset[CellKey] = frozenset()


# Both take the text colour (the page script makes shapes neutral, as it does reference lines): the
# budget line solid, the pick's box dotted and lightened, to stand out on the dark cells either way.
BUDGET_LINE = {"width": 4}
PICK_BOX = {"width": 3, "dash": "dot"}
PICK_FILL = "rgba(255,255,255,0.35)"


def _ms(value: float) -> str:
    """A cell's median as it prints in the cell: 3 significant digits, never an exponent (1,110, not 1.11e+03)."""
    if value >= 100:
        return f"{round(value, -math.floor(math.log10(value)) + 2):,.0f}"
    return f"{value:.3g}"


def _budget_shapes(fits: list[list[bool]], pick: tuple[int, int] | None) -> list[dict[str, Any]]:
    """The line between the cells that fit the budget and their neighbours that do not (or were not
    measured), on category axes where cell (i, j) spans i ± 0.5, j ± 0.5; and a box on the pick."""
    shapes = []

    def segment(x0: float, y0: float, x1: float, y1: float) -> dict[str, Any]:
        return {"type": "line", "xref": "x", "yref": "y", "x0": x0, "y0": y0, "x1": x1, "y1": y1, "line": BUDGET_LINE}

    for j, row in enumerate(fits):
        for i, inside in enumerate(row):
            if i + 1 < len(row) and inside != row[i + 1]:
                shapes.append(segment(i + 0.5, j - 0.5, i + 0.5, j + 0.5))
            if j + 1 < len(fits) and inside != fits[j + 1][i]:
                shapes.append(segment(i - 0.5, j + 0.5, i + 0.5, j + 0.5))
    if pick is not None:
        i, j = pick
        box = {"type": "rect", "xref": "x", "yref": "y", "line": PICK_BOX, "fillcolor": PICK_FILL}
        shapes.append({**box, "x0": i - 0.5, "x1": i + 0.5, "y0": j - 0.5, "y1": j + 0.5})
    return shapes


def heatmaps(analysis: Argon2Analysis, answer: Answer | None = None) -> dict[str, Any]:
    """Median time over memory × threads, one heatmap per interface, variant and time cost; a menu picks
    one. Each cell prints its median (ms) and its hover gives the median's CI; where the page answers a
    budget, a line bounds the cells within it, a box marks the pick, and the chart opens on the pick's
    interface, variant and time cost (the parameters the answer uses)."""
    memories, threads = analysis.axis("memory_kib"), analysis.axis("threads")
    # Oversubscription is a property of the machine, so the axis says it, not only the hover text.
    oversubscribed = {c.key.threads for c in analysis.cells if c.oversubscribed}
    rows = [f"p={p} > cores" if p in oversubscribed else f"p={p}" for p in threads]
    pick = answer.cell if answer is not None else None
    traces = []
    labels: list[str] = []
    shapes: list[list[dict[str, Any]]] = []
    shown = 0
    for interface, variant in analysis.series:
        for time_cost in analysis.axis("time_cost"):
            z, hover, fits = [], [], []
            for p in threads:
                cells = [analysis.find(interface, variant, m // 1024, p, time_cost) for m in memories]
                z.append([time_point(cell.wall).value if cell and cell.wall else None for cell in cells])
                hover.append([_cell_hover(cell) for cell in cells])
                fits.append([answer is not None and cell is not None and cell.key in answer.fits for cell in cells])
            here = pick is not None and (pick.key.interface, pick.key.variant, pick.key.time_cost) == (
                interface,
                variant,
                time_cost,
            )
            if here and pick is not None:
                shown = len(labels)
            where = (memories.index(pick.key.memory_kib), threads.index(pick.key.threads)) if here and pick else None
            shapes.append(_budget_shapes(fits, where) if answer is not None else [])
            labels.append(f"{label(interface)} {label(variant)}, t={time_cost}")
            traces.append(
                go.Heatmap(
                    x=[f"{m // 1024} MiB" for m in memories],
                    y=rows,
                    z=z,
                    text=[[_ms(value) if value is not None else "" for value in row] for row in z],
                    texttemplate="%{text}",
                    customdata=hover,
                    colorscale="Viridis",
                    colorbar={"title": "ms"},
                    hovertemplate=f"%{{x}}, %{{y}}: {INTERVAL_HOVER}<extra></extra>",
                    name=labels[-1],
                )
            )
    for index, trace in enumerate(traces):
        trace.visible = index == shown
    budget = (
        f"; the solid line bounds the cells whose interval lies within the answer's {answer.budget_ms} ms budget"
        + (", the dotted, lightened cell is its pick" if pick is not None else "")
        if answer is not None
        else ""
    )
    # Every view's marks are in the layout, shown with their view: the menu toggles them (replacing the
    # shapes would lose the colours the page script gives them).
    owners = [view for view, view_shapes in enumerate(shapes) for _ in view_shapes]
    every = [
        {**shape, "visible": owner == shown}
        for owner, shape in zip(owners, (s for v in shapes for s in v), strict=True)
    ]
    menu = _picker(labels, list(range(len(labels))))
    for view, button in enumerate(menu[0]["buttons"]):
        button["args"].append({f"shapes[{k}].visible": owner == view for k, owner in enumerate(owners)})
    menu[0]["active"] = shown
    return figure_data(
        traces,
        {
            "title": (
                f"Median time per hash (ms) over memory × threads (pick interface, variant and time cost{budget}; "
                f"hover a cell for its {MEDIAN_IN_RUN.text})"
            ),
            "updatemenus": menu,
            "shapes": every,
            "margin": {"t": 60},
            "xaxis": {"title": "memory", "type": "category"},
            "yaxis": {"title": "threads", "type": "category"},
        },
        legend_below=False,
    )


def time_vs_memory(analysis: Argon2Analysis) -> dict[str, Any]:
    """Median time per hash against memory, one thread, per interface and variant; ticks at the sizes measured."""
    traces = []
    time_cost = min(analysis.axis("time_cost"), key=lambda t: abs(t - 3))
    measured: set[int] = set()
    for interface, variant in analysis.series:
        cells = [
            c
            for c in analysis.cells
            if (c.key.interface, c.key.variant, c.key.threads, c.key.time_cost) == (interface, variant, 1, time_cost)
            and c.wall
        ]
        cells.sort(key=lambda c: c.key.memory_kib)
        measured |= {c.key.memory_mib for c in cells}
        name = f"{label(interface)} {label(variant)}"
        traces.append(
            go.Scatter(
                x=[c.key.memory_mib for c in cells],
                **interval_points("y", [time_point(c.wall) for c in cells if c.wall], MEDIAN_IN_RUN, " ms"),
                mode="lines+markers",
                name=name,
                line={"dash": INTERFACE_DASH.get(interface, "dashdot")},
                marker=VARIANT_MARKER.get(variant, {"symbol": "x", "size": 9}),
                hovertemplate=f"{name}, %{{x}} MiB: {INTERVAL_HOVER}<extra></extra>",
            )
        )
    return figure_data(
        traces,
        {
            "title": f"Time per hash against memory (1 thread, t={time_cost}; error bars: {MEDIAN_IN_RUN.text})",
            "xaxis": _memory_axis(measured),
            "yaxis": {"title": "ms per hash (log)", "type": "log"},
        },
    )


def _memory_axis(mebibytes: set[int]) -> dict[str, Any]:
    """A log axis of memory with its ticks at the sizes measured (16, 64 MiB, not Plotly's 20 and 50)."""
    ticks = sorted(mebibytes)
    return {
        "title": "memory (MiB, log)",
        "type": "log",
        "tickmode": "array",
        "tickvals": ticks,
        "ticktext": [str(t) for t in ticks],
    }


def cpu_vs_wall(analysis: Argon2Analysis) -> dict[str, Any]:
    """CPU time over wall time against memory, one trace per thread count, with its CI; a menu picks
    the interface, variant and time cost (all the cells at once were a column of overlapping error
    bars). Above 1, threads ran in parallel; it cannot pass the core count."""
    traces = []
    labels: list[str] = []
    owners: list[int] = []
    measured: set[int] = set()
    default = min(analysis.axis("time_cost"), key=lambda t: abs(t - 3))
    shown: int | None = None  # the first interface and variant at the time cost closest to 3
    for interface, variant in analysis.series:
        for time_cost in analysis.axis("time_cost"):
            pick = f"{label(interface)} {label(variant)}, t={time_cost}"
            if shown is None and time_cost == default:
                shown = len(labels)
            for index, threads in enumerate(analysis.axis("threads")):
                cells = sorted(
                    (
                        c
                        for c in analysis.cells
                        if (c.key.interface, c.key.variant, c.key.time_cost, c.key.threads)
                        == (interface, variant, time_cost, threads)
                        and c.cpu_over_wall_ratio is not None
                    ),
                    key=lambda c: c.key.memory_kib,
                )
                if not cells:
                    continue
                measured |= {c.key.memory_mib for c in cells}
                ratios = [c.cpu_over_wall_ratio for c in cells if c.cpu_over_wall_ratio is not None]
                more = any(c.oversubscribed for c in cells)
                name = f"p={threads} > cores" if more else f"p={threads}"
                traces.append(
                    go.Scatter(
                        x=[c.key.memory_mib for c in cells],
                        **interval_points("y", ratios, CPU_OVER_WALL),
                        mode="lines+markers",
                        marker={"symbol": "x" if more else "circle", "size": 8, "color": COLORWAY[index]},
                        line={"color": COLORWAY[index], "dash": "dot" if more else "solid"},
                        name=name,
                        # The legend names the thread count; the CSV names the pick too (chart_data reads meta).
                        meta=pick,
                        hovertemplate=f"%{{meta}}, {name}, %{{x}} MiB: CPU ÷ wall {INTERVAL_HOVER}<extra></extra>",
                    )
                )
                owners.append(len(labels))
            labels.append(pick)
    for trace, owner in zip(traces, owners, strict=True):
        trace.visible = owner == shown
    return figure_data(
        traces,
        {
            "title": (
                "What threads buy: CPU time ÷ wall time against memory, per thread count "
                f"(pick interface, variant and time cost; error bars: {CPU_OVER_WALL.text})"
            ),
            "updatemenus": _picker(labels, owners),
            "margin": {"t": 60},
            "xaxis": _memory_axis(measured),
            "yaxis": {"title": "CPU ÷ wall"},
        },
    )


def all_figures(analysis: Argon2Analysis, answer: Answer | None = None) -> dict[str, dict[str, Any]]:
    if not any(c.wall for c in analysis.cells):
        return {}
    return {
        "argon2-heatmap": heatmaps(analysis, answer),
        "argon2-memory": time_vs_memory(analysis),
        "argon2-threads": cpu_vs_wall(analysis),
    }
