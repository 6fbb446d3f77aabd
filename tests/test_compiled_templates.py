"""Compiled page templates outlive the process that compiled them (presentation/render.py: _CompiledTemplates):
the next process reads them from Jinja's disk cache, a changed template is compiled again, and a disk that
cannot be written costs a compile, never a build."""

from __future__ import annotations

from pathlib import Path

import jinja2
import pytest

from phpcb.presentation import render


def environment(templates: Path, cache: jinja2.BytecodeCache) -> jinja2.Environment:
    return jinja2.Environment(loader=jinja2.FileSystemLoader(templates), bytecode_cache=cache, autoescape=True)


class Counting(jinja2.FileSystemBytecodeCache):
    """Jinja's disk cache, counting what it was asked to write."""

    def __init__(self, directory: Path) -> None:
        directory.mkdir(exist_ok=True)
        super().__init__(str(directory))
        self.dumped = 0

    def dump_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        self.dumped += 1
        super().dump_bytecode(bucket)


class Unwritable(jinja2.BytecodeCache):
    def load_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        pass

    def dump_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        raise OSError(28, "No space left on device")


@pytest.fixture
def templates(tmp_path: Path) -> Path:
    directory = tmp_path / "templates" / "experiments"
    directory.mkdir(parents=True)
    (directory / "page.md.j2").write_text("{{ value }} of {{ of }}\n", encoding="utf-8")
    return directory.parent


def test_a_template_another_process_compiled_is_read_from_disk_not_compiled(templates, tmp_path):
    first = Counting(tmp_path / "cache")
    assert environment(templates, render._CompiledTemplates(first)).get_template("experiments/page.md.j2")
    assert first.dumped == 1, "compiled once, and written to disk"

    # A new process: nothing in memory, the same disk.
    second = Counting(tmp_path / "cache")
    page = environment(templates, render._CompiledTemplates(second)).get_template("experiments/page.md.j2")
    assert second.dumped == 0, "read from disk: nothing compiled, so nothing written"
    assert page.render(value=3, of="<b>") == "3 of &lt;b&gt;"


def test_a_changed_template_is_compiled_again_whatever_the_disk_holds(templates, tmp_path):
    first = render._CompiledTemplates(Counting(tmp_path / "cache"))
    environment(templates, first).get_template("experiments/page.md.j2")
    (templates / "experiments" / "page.md.j2").write_text("{{ value }} changed\n", encoding="utf-8")

    again = Counting(tmp_path / "cache")
    page = environment(templates, render._CompiledTemplates(again)).get_template("experiments/page.md.j2")
    assert again.dumped == 1, "the checksum differs: compiled again"
    assert page.render(value=3) == "3 changed"


def test_a_disk_that_cannot_be_written_costs_a_compile_not_the_build(templates):
    page = environment(templates, render._CompiledTemplates(Unwritable())).get_template("experiments/page.md.j2")
    assert page.render(value=1, of="2") == "1 of 2"


def test_a_template_compiled_under_other_settings_is_not_reused(templates, tmp_path):
    """The Comparison page's environment has no `finalize` (render.markdown_ready): code compiled for the
    pages' environment, which calls it, would fail there, and the reverse would skip it."""
    pages = render.environment(templates)
    pages.bytecode_cache = render._CompiledTemplates(Counting(tmp_path / "cache"))
    assert pages.get_template("experiments/page.md.j2").render(value="a*b", of=1) == "a&#42;b of 1\n"

    in_a_new_process = render.environment(templates)
    in_a_new_process.bytecode_cache = render._CompiledTemplates(Counting(tmp_path / "cache"))
    markdown = render.markdown_ready(in_a_new_process)
    assert markdown.get_template("experiments/page.md.j2").render(value="a*b", of=1) == "a*b of 1\n"
