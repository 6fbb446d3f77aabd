"""MkDocs hooks: list the registered experiments in the nav, generate the data-driven pages in memory
on every build (and on `mkdocs serve` whenever data/, templates/ or scripts/ change), publish the
run files, and ship Plotly.js."""

from __future__ import annotations

import os
import re
import sys
from pathlib import Path
from typing import Any

from mkdocs.config.defaults import MkDocsConfig
from mkdocs.exceptions import PluginError
from mkdocs.structure.files import File, Files

SCRIPTS = str(Path(__file__).resolve().parent)
# Where data/, templates/ and runners/snippets/ are read from: this repository, or PHPCB_ROOT (tests build
# fixture projects).
ROOT = Path(os.environ.get("PHPCB_ROOT", Path(__file__).resolve().parent.parent)).resolve()
EXPERIMENTS_SECTION = "Experiments"
# Only when PHPCB_COMPARE names runs (make report, PR previews): the page does not exist otherwise.
COMPARISON_TITLE = "Comparison"
SERVING_VARIABLE = "PHPCB_SERVING"
sys.path.insert(0, SCRIPTS)

import plotly  # noqa: E402

from phpcb.pages import build as site  # noqa: E402

PLOTLY_JS = Path(plotly.__file__).parent / "package_data" / "plotly.min.js"


def _fresh_phpcb() -> Any:
    """The phpcb package as it is on disk now. MkDocs restores sys.path after loading a hook, and
    under `mkdocs serve` the modules may have changed since the last build."""
    if SCRIPTS not in sys.path:
        sys.path.insert(0, SCRIPTS)
    for name in [m for m in sys.modules if m == "phpcb" or m.startswith("phpcb.")]:
        del sys.modules[name]
    import phpcb.data.selection
    import phpcb.errors
    import phpcb.experiments.registry
    import phpcb.pages.build

    return phpcb


def on_startup(*, command: str, dirty: bool) -> None:
    # The hooks module is imported again for every rebuild; the environment outlives it.
    if command == "serve":
        os.environ[SERVING_VARIABLE] = "1"


def _serving() -> bool:
    return os.environ.get(SERVING_VARIABLE) == "1"


def on_config(config: MkDocsConfig) -> MkDocsConfig:
    """The nav's Experiments section lists the registry, in its reading order: nothing to keep in sync."""
    phpcb = _fresh_phpcb()
    try:
        section = [{e.title: e.page} for e in phpcb.experiments.registry.discover()]
    except phpcb.errors.BuildError as error:
        if not _serving():
            raise PluginError(str(error)) from None
        section = []  # on_files serves the error itself
    nav = list(config.nav or [])
    for index, entry in enumerate(nav):
        if isinstance(entry, dict) and EXPERIMENTS_SECTION in entry:
            nav[index] = {EXPERIMENTS_SECTION: section}
            break
    else:
        nav.insert(1, {EXPERIMENTS_SECTION: section})
    if phpcb.data.selection.compared_runs():
        nav.insert(2, {COMPARISON_TITLE: phpcb.pages.build.COMPARISON_PAGE})
    config.nav = nav
    return config


def on_files(files: Files, config: MkDocsConfig) -> Files:
    import phpcb.errors
    import phpcb.pages.build

    try:
        generated = phpcb.pages.build.build(ROOT)
    except phpcb.errors.BuildError as error:
        if not _serving():
            raise PluginError(str(error)) from None
        # Under `mkdocs serve` the author sees the error in the browser, on every generated page,
        # and the next save that fixes the data rebuilds the real pages.
        # Printed, not logged: a logged error would abort the build in strict mode.
        print(f"ERROR    -  {error}", file=sys.stderr, flush=True)
        for uri in _generated_pages(config):
            files.append(File.generated(config, uri, content=error_page(str(error))))
        return files
    for uri, text in (generated.pages | generated.contents).items():
        files.append(File.generated(config, uri, content=text))
    for uri, data in generated.binaries.items():
        files.append(File.generated(config, uri, content=data))
    for uri, path in generated.files.items():
        files.append(File.generated(config, uri, abs_src_path=str(path)))
    files.append(File.generated(config, "assets/javascripts/plotly.min.js", abs_src_path=str(PLOTLY_JS)))
    return files


def _generated_pages(config: MkDocsConfig) -> list[str]:
    """The nav's pages that the build generates (the hand-written ones are files under docs/)."""
    docs = Path(config.docs_dir)
    pages: list[str] = []

    def walk(entries: Any) -> None:
        for entry in entries or []:
            value = next(iter(entry.values())) if isinstance(entry, dict) else entry
            if isinstance(value, list):
                walk(value)
            elif isinstance(value, str) and value.endswith(".md") and not (docs / value).is_file():
                pages.append(value)

    walk(config.nav)
    return list(dict.fromkeys(["index.md", *pages]))


def error_page(message: str) -> str:
    """A page that shows the build error as it is (a fence longer than any backtick run in it)."""
    fence = "`" * max(3, 1 + max((len(run) for run in re.findall(r"`+", message)), default=0))
    return (
        "# The site cannot be built\n\n"
        "`python -m phpcb check` says:\n\n"
        f"{fence}text\n{message}\n{fence}\n\n"
        "Fix the file it names and save: `mkdocs serve` rebuilds this page.\n"
    )


def on_serve(server: Any, config: MkDocsConfig, builder: Any) -> Any:
    for path in site.Project(ROOT).watched:
        if path.exists():  # a PHPCB_ROOT project may have no scripts/ of its own
            server.watch(str(path))
    return server
