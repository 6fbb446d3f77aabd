"""A Markdown extension the root mkdocs.yml (the frame of the site) lists, so that a generator that builds
from the frame without generating the pages first stops at once with one line saying what to run.

MkDocs runs overrides/hooks/generated_site.py, which generates the pages and sets GENERATED before any
page is rendered; Zensical ignores hooks, so from the root it would build the frame's hand-written pages
alone, their links to generated pages broken. The generated build/mkdocs.yml does not list this
extension (pages/site_files.py: configuration)."""

from __future__ import annotations

import os
import sys
from typing import Any, NoReturn

from markdown import Markdown
from markdown.extensions import Extension
from markdown.preprocessors import Preprocessor

GENERATED = "PHPCB_GENERATED_SITE"
NAME = "phpcb.presentation.generated_only"
MESSAGE = (
    "error: the root mkdocs.yml is only the frame of the site, whose pages are generated from the runs: "
    "run `make serve GENERATOR=zensical` (or `mkdocs serve`, which generates them through its hook)"
)


class GeneratedOnly(Extension):
    """Changes no page. Checked when the first page is rendered, not when the extension is loaded: MkDocs
    loads every extension to validate the configuration, before its hook has generated the pages."""

    def extendMarkdown(self, md: Markdown) -> None:
        md.preprocessors.register(Guard(md), "phpcb-generated-only", 1000)


class Guard(Preprocessor):
    def run(self, lines: list[str]) -> list[str]:
        if os.environ.get(GENERATED) != "1":
            _stop()
        return lines


def _stop() -> NoReturn:
    # Zensical wraps an exception raised here in its own traceback: the one line, then out.
    print(MESSAGE, file=sys.stderr, flush=True)
    os._exit(2)


def makeExtension(**kwargs: Any) -> GeneratedOnly:
    """What Python-Markdown calls to load an extension named by its module."""
    return GeneratedOnly(**kwargs)
