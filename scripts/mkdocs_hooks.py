"""MkDocs hooks: list the registered experiments in the nav, generate the data-driven pages in memory
on every build (and on `mkdocs serve` whenever data/, templates/ or scripts/ change), publish the
run files, and ship Plotly.js."""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any

from mkdocs.config.defaults import MkDocsConfig
from mkdocs.exceptions import PluginError
from mkdocs.structure.files import File, Files

SCRIPTS = str(Path(__file__).resolve().parent)
# Where data/ and templates/ are read from: this repository, or PHPCB_ROOT (tests build fixture projects).
ROOT = Path(os.environ.get("PHPCB_ROOT", Path(__file__).resolve().parent.parent)).resolve()
EXPERIMENTS_SECTION = "Experiments"
# Only when PHPCB_COMPARE names runs (make report, PR previews): the page does not exist otherwise.
COMPARISON_TITLE = "Comparison"
sys.path.insert(0, SCRIPTS)

import plotly  # noqa: E402

from phpcb import site  # noqa: E402

PLOTLY_JS = Path(plotly.__file__).parent / "package_data" / "plotly.min.js"


def _fresh_phpcb() -> Any:
    """The phpcb package as it is on disk now. MkDocs restores sys.path after loading a hook, and
    under `mkdocs serve` the modules may have changed since the last build."""
    if SCRIPTS not in sys.path:
        sys.path.insert(0, SCRIPTS)
    for name in [m for m in sys.modules if m == "phpcb" or m.startswith("phpcb.")]:
        del sys.modules[name]
    import phpcb.errors
    import phpcb.registry
    import phpcb.selection
    import phpcb.site

    return phpcb


def on_config(config: MkDocsConfig) -> MkDocsConfig:
    """The nav's Experiments section lists the registry, in its reading order: nothing to keep in sync."""
    phpcb = _fresh_phpcb()
    try:
        section = [{e.title: e.page} for e in phpcb.registry.discover()]
    except phpcb.errors.BuildError as error:
        raise PluginError(str(error)) from None
    nav = list(config.nav or [])
    for index, entry in enumerate(nav):
        if isinstance(entry, dict) and EXPERIMENTS_SECTION in entry:
            nav[index] = {EXPERIMENTS_SECTION: section}
            break
    else:
        nav.insert(1, {EXPERIMENTS_SECTION: section})
    if phpcb.selection.compared_runs():
        nav.insert(2, {COMPARISON_TITLE: phpcb.site.COMPARISON_PAGE})
    config.nav = nav
    return config


def on_files(files: Files, config: MkDocsConfig) -> Files:
    import phpcb.errors  # as on_config reloaded them for this build
    import phpcb.site

    try:
        generated = phpcb.site.build(ROOT)
    except phpcb.errors.BuildError as error:
        raise PluginError(str(error)) from None
    for uri, text in (generated.pages | generated.contents).items():
        files.append(File.generated(config, uri, content=text))
    for uri, path in generated.files.items():
        files.append(File.generated(config, uri, abs_src_path=str(path)))
    files.append(File.generated(config, "assets/javascripts/plotly.min.js", abs_src_path=str(PLOTLY_JS)))
    return files


def on_serve(server: Any, config: MkDocsConfig, builder: Any) -> Any:
    for path in site.Project(ROOT).watched:
        server.watch(str(path))
    return server
