"""`phpcb synthesize`: valid runs for benchmarking the build, each with its own id and timings."""

import pyarrow.compute as pc
import pytest

from phpcb.data.loader import load_run, load_runs
from phpcb.data.schema import load_schemas
from phpcb.data.synthetic import synthesize
from phpcb.errors import BuildError
from phpcb.pages import build as site

from .conftest import FIXTURE_RUN, ROOT

SCHEMAS = load_schemas(ROOT / "data" / "schema")


def test_synthetic_runs_are_valid_distinct_copies(make_project, tmp_path):
    out = tmp_path / "bench"
    synthesize(make_project(FIXTURE_RUN), 3, out)
    runs = load_runs(out / "data" / "runs", SCHEMAS)
    assert [run.run_id for run in runs] == [
        "20260101T0000Z-synthetic-php8.2",
        "20260101T0001Z-synthetic-php8.2",
        "20260101T0002Z-synthetic-php8.2",
    ]
    source = load_run(FIXTURE_RUN, SCHEMAS)
    totals = {pc.sum(run.frames["aead.csv"]["elapsed_ns"]).as_py() for run in runs}
    assert len(totals) == 3, "each run scales its timings by its own factor"
    assert runs[0].frames["aead.csv"].num_rows == source.frames["aead.csv"].num_rows
    assert runs[0].frames["cipher_inventory.csv"].equals(source.frames["cipher_inventory.csv"])
    generated = site.build(out)
    assert "experiments/aead.md" in generated.pages, "the output is a project `make site` can build"


def test_synthesize_refuses_an_existing_directory(make_project, tmp_path):
    with pytest.raises(BuildError, match="already exists"):
        synthesize(make_project(FIXTURE_RUN), 1, tmp_path)
