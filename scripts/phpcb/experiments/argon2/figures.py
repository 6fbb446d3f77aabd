"""Plotly figures for the argon2 page, as plain JSON-ready dicts (the page script applies the palette)."""

from __future__ import annotations

from typing import Any

import plotly.graph_objects as go

from phpcb.experiments.argon2.analysis import Argon2Analysis, Cell
from phpcb.presentation.formatting import value_ci
from phpcb.presentation.plotting import (
    COLORWAY,
    INTERVAL_HOVER,
    MEDIAN_IN_RUN,
    Spread,
    interval_points,
    label,
    plain,
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


def heatmaps(analysis: Argon2Analysis) -> dict[str, Any]:
    """Median time over memory × threads, one heatmap per interface, variant and time cost; a menu picks one.
    Each cell's hover gives its median's CI."""
    memories, threads = analysis.axis("memory_kib"), analysis.axis("threads")
    # Oversubscription is a property of the machine, so the axis says it, not only the hover text.
    oversubscribed = {c.key.threads for c in analysis.cells if c.oversubscribed}
    rows = [f"p={p} > cores" if p in oversubscribed else f"p={p}" for p in threads]
    figure = go.Figure()
    labels = []
    for interface, variant in analysis.series:
        for time_cost in analysis.axis("time_cost"):
            z, hover = [], []
            for p in threads:
                cells = [analysis.find(interface, variant, m // 1024, p, time_cost) for m in memories]
                z.append([time_point(cell.wall).value if cell and cell.wall else None for cell in cells])
                hover.append([_cell_hover(cell) for cell in cells])
            labels.append(f"{label(interface)} {label(variant)}, t={time_cost}")
            figure.add_trace(
                go.Heatmap(
                    x=[f"{m // 1024} MiB" for m in memories],
                    y=rows,
                    z=z,
                    customdata=hover,
                    colorscale="Viridis",
                    colorbar={"title": "ms"},
                    visible=len(labels) == 1,
                    hovertemplate=f"%{{x}}, %{{y}}: {INTERVAL_HOVER}<extra></extra>",
                    name=labels[-1],
                )
            )
    figure.update_layout(
        title=(
            "Median time per hash over memory × threads (pick interface, variant and time cost; "
            f"hover a cell for its {MEDIAN_IN_RUN.text})"
        ),
        updatemenus=_picker(labels, list(range(len(labels)))),
        margin={"t": 60},
        xaxis={"title": "memory", "type": "category"},
        yaxis={"title": "threads", "type": "category"},
    )
    return plain(figure, legend_below=False)


def time_vs_memory(analysis: Argon2Analysis) -> dict[str, Any]:
    """Median time per hash against memory, one thread, per interface and variant; ticks at the sizes measured."""
    figure = go.Figure()
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
        figure.add_trace(
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
    figure.update_layout(
        title=f"Time per hash against memory (1 thread, t={time_cost}; error bars: {MEDIAN_IN_RUN.text})",
        xaxis=_memory_axis(measured),
        yaxis={"title": "ms per hash (log)", "type": "log"},
    )
    return plain(figure)


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
    figure = go.Figure()
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
                figure.add_trace(
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
    for trace, owner in zip(figure.data, owners, strict=True):
        trace.visible = owner == shown
    figure.update_layout(
        title=(
            "What threads buy: CPU time ÷ wall time against memory, per thread count "
            f"(pick interface, variant and time cost; error bars: {CPU_OVER_WALL.text})"
        ),
        updatemenus=_picker(labels, owners),
        margin={"t": 60},
        xaxis=_memory_axis(measured),
        yaxis={"title": "CPU ÷ wall"},
    )
    return plain(figure)


def all_figures(analysis: Argon2Analysis) -> dict[str, dict[str, Any]]:
    if not any(c.wall for c in analysis.cells):
        return {}
    return {
        "argon2-heatmap": heatmaps(analysis),
        "argon2-memory": time_vs_memory(analysis),
        "argon2-threads": cpu_vs_wall(analysis),
    }
