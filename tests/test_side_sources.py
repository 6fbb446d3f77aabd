"""A side (`python -m phpcb statements --pages`, publish/sides.py) loads and analyses its runs once: its
statements and its pages read the same analyses (pages/build.Sources), and say what they say apart."""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from phpcb.commands.main import main
from phpcb.experiments import contexts
from phpcb.pages import build
from phpcb.publish import page_text
from phpcb.publish.statements import Snapshot, collect

from .conftest import FIXTURE_RUNS, MakeProject


def test_a_side_analyses_each_run_once_and_states_what_the_statements_alone_state(
    make_project: MakeProject, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
):
    root = make_project(*FIXTURE_RUNS)
    analysed: Counter[tuple[str, str]] = Counter()
    original = contexts.run_context

    def counted(experiment: Any, run: Any, *args: Any, **kwargs: Any) -> dict[str, Any]:
        analysed[(experiment.name, run.run_id)] += 1
        return original(experiment, run, *args, **kwargs)

    monkeypatch.setattr(contexts, "run_context", counted)
    out, pages = tmp_path / "side" / "statements.json", tmp_path / "side" / "pages"
    assert main(["--root", str(root), "statements", "--out", str(out), "--pages", str(pages)]) == 0
    assert analysed, "the side analysed its runs"
    assert set(analysed.values()) == {1}, f"analysed more than once: {[k for k, n in analysed.items() if n > 1]}"
    assert (pages / "index.md").is_file()
    assert len(page_text.read(pages)) == len(list(pages.rglob("*.md")))
    monkeypatch.undo()
    assert Snapshot.read(out).to_json() == collect(root).to_json(), "sharing the analyses changes no statement"


def test_sources_are_the_trees_they_were_loaded_from(make_project: MakeProject, tmp_path: Path):
    root = make_project(FIXTURE_RUNS[0])
    sources = build.load(root)
    with pytest.raises(ValueError, match="not"):
        collect(tmp_path / "elsewhere", sources)
    with pytest.raises(ValueError, match="not"):
        build.build(root, build.RunFiles(base="../"), sources=sources)
