"""A run's precision is computed once per run object and schemas, and forgotten with the run."""

from __future__ import annotations

import gc
from dataclasses import replace

from phpcb.data.loader import load_run
from phpcb.data.schema import load_schemas
from phpcb.presentation import precision as module
from phpcb.presentation.precision import precision

from .conftest import FIXTURE_RUN, ROOT

SCHEMAS = load_schemas(ROOT / "data" / "schema")


def test_the_same_run_is_answered_once(monkeypatch):
    run = load_run(FIXTURE_RUN, SCHEMAS)
    computed: list[str] = []
    original = module._precision

    def counted(run_, experiment, schemas):
        computed.append(experiment)
        return original(run_, experiment, schemas)

    monkeypatch.setattr(module, "_precision", counted)
    first = precision(run, "aead", SCHEMAS)
    assert precision(run, "aead", SCHEMAS) is first
    assert computed == ["aead"]
    assert precision(run, "symmetric", SCHEMAS) is not first
    assert computed == ["aead", "symmetric"]


def test_another_run_object_or_schemas_is_computed_afresh():
    run = load_run(FIXTURE_RUN, SCHEMAS)
    first = precision(run, "aead", SCHEMAS)
    again = load_run(FIXTURE_RUN, SCHEMAS)  # the same run id, another object: never taken for the first
    assert precision(again, "aead", SCHEMAS) is not first
    assert precision(again, "aead", SCHEMAS) == first
    other = replace(SCHEMAS)
    assert precision(run, "aead", other) is not first
    assert precision(run, "aead", other) == first


def test_a_run_that_goes_takes_its_answers_with_it():
    run = load_run(FIXTURE_RUN, SCHEMAS)
    precision(run, "aead", SCHEMAS)
    assert run in module._KNOWN
    before = len(module._KNOWN)
    del run
    gc.collect()
    assert len(module._KNOWN) == before - 1
