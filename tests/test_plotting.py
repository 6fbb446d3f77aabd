"""plotting.plain and plotting.figure_data serialise a figure from Plotly's own trace and layout data rather
than through go.Figure.to_json (which deep-copies the figure and its default template, most of a build's
figure cost). They read attributes Plotly does not document, so these tests hold them to what the public
path gives, on figures with what the site's figures carry: numpy arrays, NaN, error bars, a log axis,
markup-like text, reference lines and their labels. A Plotly upgrade that changes those attributes fails
here, not on a page."""

from __future__ import annotations

import json
from typing import Any

import numpy as np
import plotly.graph_objects as go
import pytest

from phpcb.presentation import plotting


def through_the_public_path(figure: go.Figure, legend_below: bool = True) -> dict[str, Any]:
    """What plain gave before it read Plotly's attributes: update_layout, to_json, the template dropped."""
    figure.update_layout(colorway=plotting.COLORWAY)
    if legend_below:
        figure.update_layout(legend=plotting.LEGEND_BELOW)
    if figure.layout.height is None:
        figure.update_layout(height=520)
    data: dict[str, Any] = json.loads(figure.to_json())
    data["layout"].pop("template", None)
    plotting.dots_on_log_axes(data)
    plotting.hover_like_the_tables(data["layout"])
    return data


def traces() -> list[Any]:
    return [
        go.Bar(
            x=["aes-256-gcm", "<script>", "chacha20-poly1305"],
            y=np.array([1.5, float("nan"), 3.25]),
            name="encrypt & <b>",
            error_y=plotting.asymmetric_error_bars([0.1, None, 0.2], [0.05, None, 0.1]),
            hovertemplate="%{x}: %{y:.3~r} MB/s<extra></extra>",
        ),
        go.Scatter(
            x=[1, 10, 100], y=[2.0, 20.0, 200.0], mode="markers+lines", name="native", customdata=[[1], [2], [3]]
        ),
    ]


def layout(height: int | None = None) -> dict[str, Any]:
    found: dict[str, Any] = {
        "title": "Throughput & latency <at 16 KiB>",
        "xaxis": {"title": "payload", "type": "log"},
        "yaxis": {"title": "MB/s"},
        "legend": {"title": {"text": "mode"}},
    }
    if height is not None:
        found["height"] = height
    return found


@pytest.mark.parametrize("legend_below", [True, False])
@pytest.mark.parametrize("height", [None, 300])
def test_plain_gives_what_the_public_path_gives(legend_below, height):
    fast = plotting.plain(go.Figure(traces(), layout=layout(height)), legend_below)
    assert fast == through_the_public_path(go.Figure(traces(), layout=layout(height)), legend_below)
    assert "template" not in fast["layout"]
    assert all("uid" not in trace for trace in fast["data"])


def test_figure_data_gives_what_plain_of_the_figure_gives():
    assert plotting.figure_data(traces(), layout()) == through_the_public_path(go.Figure(traces(), layout=layout()))


def test_a_figure_of_subplots_gives_what_the_public_path_gives():
    from plotly.subplots import make_subplots

    def made() -> go.Figure:
        figure = make_subplots(rows=1, cols=2, subplot_titles=("P-256", "<P-384>"))
        figure.add_trace(go.Bar(x=["keygen"], y=[1.0]), row=1, col=1)
        figure.add_trace(go.Bar(x=["keygen"], y=[np.float64(2.5)]), row=1, col=2)
        return figure

    assert plotting.plain(made()) == through_the_public_path(made())


def test_the_reference_lines_are_the_ones_add_hline_and_add_vline_draw():
    public = go.Figure(traces(), layout=layout())
    public.add_hline(y=250, line_dash="dash", annotation_text="250 ms budget", annotation_position="top left")
    public.add_vline(x=16384, line_dash="dot")
    budget = plotting.labelled_horizontal_lines([("250 ms budget", 250)], "dash")
    lines = {
        **layout(),
        "shapes": [*budget["shapes"], plotting.vertical_line(16384, "dot")],
        "annotations": budget["annotations"],
    }
    assert plotting.figure_data(traces(), lines) == through_the_public_path(public)
