"""Plotly figures for the argon2 page, as plain JSON-ready dicts (the page script applies the palette)."""

from __future__ import annotations

from typing import Any

import plotly.graph_objects as go

from phpcb.experiments.argon2.analysis import Argon2Analysis
from phpcb.presentation.plotting import ms, plain, time_error_bars


def heatmaps(analysis: Argon2Analysis) -> dict[str, Any]:
    """Median time over memory × threads, one heatmap per interface, variant and time cost; a menu picks one."""
    memories, threads = analysis.axis("memory_kib"), analysis.axis("threads")
    # Oversubscription is a property of the machine, so the axis says it, not only the hover text.
    oversubscribed = {c.key.threads for c in analysis.cells if c.oversubscribed}
    rows = [f"p={p} > cores" if p in oversubscribed else f"p={p}" for p in threads]
    figure = go.Figure()
    labels = []
    for interface, variant in analysis.series:
        for time_cost in analysis.axis("time_cost"):
            z, text = [], []
            for p in threads:
                row, row_text = [], []
                for m in memories:
                    cell = analysis.find(interface, variant, m // 1024, p, time_cost)
                    row.append(ms(cell.wall.median_ns) if cell and cell.wall else None)
                    mark = " (more threads than cores)" if cell and cell.oversubscribed else ""
                    row_text.append(f"{cell.status}{mark}" if cell else "not measured")
                z.append(row)
                text.append(row_text)
            labels.append(f"{interface} {variant}, t={time_cost}")
            figure.add_trace(
                go.Heatmap(
                    x=[f"{m // 1024} MiB" for m in memories],
                    y=rows,
                    z=z,
                    text=text,
                    colorscale="Viridis",
                    colorbar={"title": "ms"},
                    visible=len(labels) == 1,
                    hovertemplate="%{x}, %{y}: %{z:,.3~r} ms (%{text})<extra></extra>",
                    name=labels[-1],
                )
            )
    buttons = [
        {"label": label, "method": "update", "args": [{"visible": [i == j for j in range(len(labels))]}]}
        for i, label in enumerate(labels)
    ]
    figure.update_layout(
        title="Median time per hash over memory × threads (pick interface, variant and time cost)",
        # The picker at the top of the chart (the title is the page's caption above it).
        updatemenus=[
            {"buttons": buttons, "direction": "down", "x": 0, "xanchor": "left", "y": 1.02, "yanchor": "bottom"}
        ],
        margin={"t": 60},
        xaxis={"title": "memory", "type": "category"},
        yaxis={"title": "threads", "type": "category"},
    )
    return plain(figure, legend_below=False)


def time_vs_memory(analysis: Argon2Analysis) -> dict[str, Any]:
    figure = go.Figure()
    time_cost = min(analysis.axis("time_cost"), key=lambda t: abs(t - 3))
    for interface, variant in analysis.series:
        cells = [
            c
            for c in analysis.cells
            if (c.key.interface, c.key.variant, c.key.threads, c.key.time_cost) == (interface, variant, 1, time_cost)
            and c.wall
        ]
        cells.sort(key=lambda c: c.key.memory_kib)
        walls = [c.wall for c in cells if c.wall]
        figure.add_trace(
            go.Scatter(
                x=[c.key.memory_mib for c in cells],
                y=[ms(w.median_ns) for w in walls],
                error_y=time_error_bars(walls),
                mode="lines+markers",
                name=f"{interface} {variant}",
            )
        )
    figure.update_layout(
        title=f"Time per hash against memory (1 thread, t={time_cost}; error bars: 95% CI)",
        xaxis={"title": "memory (MiB, log)", "type": "log"},
        yaxis={"title": "ms per hash (log)", "type": "log"},
    )
    return plain(figure)


def cpu_vs_wall(analysis: Argon2Analysis) -> dict[str, Any]:
    """CPU time over wall time per cell: above 1, threads ran in parallel; it cannot pass the core count."""
    figure = go.Figure()
    for oversubscribed, name in ((False, "threads ≤ cores"), (True, "more threads than cores")):
        cells = [c for c in analysis.cells if c.cpu_over_wall is not None and c.oversubscribed == oversubscribed]
        figure.add_trace(
            go.Scatter(
                x=[c.key.threads for c in cells],
                y=[round(c.cpu_over_wall or 0, 3) for c in cells],
                mode="markers",
                marker={"symbol": "x" if oversubscribed else "circle", "size": 8},
                name=name,
                text=[f"{c.key.interface} {c.key.variant} {c.key.label}" for c in cells],
                hovertemplate="%{text}: CPU/wall %{y:.3~r}<extra></extra>",
            )
        )
    figure.update_layout(
        title="What threads buy: CPU time ÷ wall time per cell",
        xaxis={"title": "threads", "type": "category"},
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
