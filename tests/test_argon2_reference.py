"""data/reference/argon2.yaml, for the argon2 experiment: the article's tables 9 and 10, complete and consistent."""

import itertools

import pytest

from phpcb.data.reference import load_reference

from .conftest import ROOT

REFERENCE = load_reference(ROOT / "data" / "reference" / "argon2.yaml")
GRID = set(itertools.product((1, 2, 4, 8), (16, 32, 64, 128, 256, 512, 1024)))


@pytest.mark.parametrize("figure_id", ["console", "php"])
def test_each_table_covers_the_whole_threads_by_memory_grid_once(figure_id):
    rows = REFERENCE.rows(figure_id)
    cells = [(row["threads"], row["memory_mib"]) for row in rows]
    assert len(cells) == len(set(cells)) == 28
    assert set(cells) == GRID


@pytest.mark.parametrize(
    ("figure_id", "column"),
    [("console", "argon2d_t1_s"), ("console", "argon2i_t3_s"), ("php", "t1_s"), ("php", "t3_s"), ("php", "t6_s")],
)
def test_time_grows_with_memory_in_every_column(figure_id, column):
    """A mistyped figure would most likely break the ordering the article's tables all show."""
    rows = REFERENCE.rows(figure_id)
    for threads in (1, 2, 4, 8):
        times = [row[column] for row in sorted(rows, key=lambda r: r["memory_mib"]) if row["threads"] == threads]
        assert times == sorted(times), (column, threads)


def test_more_iterations_take_longer_in_php():
    for row in REFERENCE.rows("php"):
        assert row["t1_s"] < row["t3_s"] < row["t6_s"], row
