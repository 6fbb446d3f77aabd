"""Each chart's data as CSV beside its page, and no bars on a log axis."""

from __future__ import annotations

import csv
import io

import plotly.graph_objects as go

from phpcb.pages import build as site
from phpcb.presentation import chart_data
from phpcb.presentation.plotting import asymmetric_error_bars, plain

from .conftest import FIXTURE_RUN


def rows(text: str) -> list[list[str]]:
    return list(csv.reader(io.StringIO(text)))


def test_a_bar_chart_gives_its_values_and_ci_ends_per_point():
    figure = go.Figure(
        go.Bar(x=["a", "b"], y=[10.0, 2.5], name="sign", error_y=asymmetric_error_bars([1.0, 0.5], [2.0, None]))
    )
    figure.update_layout(xaxis={"title": "algorithm"}, yaxis={"title": "ms"})
    assert rows(chart_data.figure_csv(plain(figure))) == [
        ["series", "x (algorithm)", "y (ms)", "y_ci_low", "y_ci_high"],
        ["sign", "a", "10.0", "8.0", "11.0"],
        ["sign", "b", "2.5", "", "3.0"],
    ]


def test_a_horizontal_chart_puts_the_ci_on_x_and_a_heatmap_gives_every_cell():
    bars = go.Figure(go.Bar(x=[3.0], y=["P-256"], orientation="h", error_x=asymmetric_error_bars([0.1], [0.2])))
    assert rows(chart_data.figure_csv(plain(bars)))[1] == ["", "3.0", "P-256", "2.8", "3.1"]
    heat = go.Figure(go.Heatmap(x=[1, 2], y=["64 MiB"], z=[[5.0, None]], name="argon2id"))
    assert rows(chart_data.figure_csv(plain(heat))) == [
        ["series", "x", "y", "z"],
        ["argon2id", "1", "64 MiB", "5.0"],
        ["argon2id", "2", "64 MiB", ""],
    ]


def test_bars_on_a_log_axis_become_grouped_dots_and_linear_bars_stay():
    log = go.Figure([go.Bar(x=["a"], y=[5.0], name="sign"), go.Bar(x=["a"], y=[50.0], name="verify")])
    log.update_layout(yaxis={"type": "log"})
    data = plain(log)
    assert [(t["type"], t["mode"], t["name"]) for t in data["data"]] == [
        ("scatter", "markers", "sign"),
        ("scatter", "markers", "verify"),
    ]
    assert data["layout"]["scattermode"] == "group"
    linear = plain(go.Figure(go.Bar(x=["a"], y=[5.0])))
    assert linear["data"][0]["type"] == "bar"
    assert "scattermode" not in linear["layout"]


def test_the_site_publishes_a_csv_per_chart(make_project):
    built = site.build(make_project(FIXTURE_RUN))
    for page in built.experiments:
        for name, figure in page.figures.items():
            uri = chart_data.csv_uri(page.experiment.page, name)
            assert built.contents[uri] == chart_data.figure_csv(figure)
            assert f'id="chart-{name}" data-csv="{name}.csv"' in page.text
    assert "machines/aead.headline.csv" in built.contents


def test_a_page_at_the_root_keeps_its_files_beside_it():
    assert chart_data.csv_uri("experiments/aead.md", "x") == "experiments/aead/x.csv"
    assert chart_data.csv_uri("machines.md", "q") == "machines/q.csv"


def test_hover_labels_have_three_significant_digits_like_the_tables():
    figure = go.Figure(go.Scatter(x=[1, 2], y=[9.724706, 1.5]))
    figure.update_layout(xaxis={"type": "category"})
    layout = plain(figure)["layout"]
    assert layout["yaxis"]["hoverformat"] == ".3~r"
    assert "hoverformat" not in layout["xaxis"], "a category is shown as it is"
