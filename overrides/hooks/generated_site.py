"""MkDocs hook: `mkdocs serve` (or `mkdocs build`) from the repository's root builds the real site.

The root mkdocs.yml is only the frame; the pages are generated from the runs by `python -m phpcb pages`
(as `make site` and `make serve` do) into a directory of this checkout's own under the system's temporary
directory, and the hook points MkDocs at it: its docs_dir and its nav. It does one thing. The generator
runs in a fresh process on every build, so a change to the data, templates, code or hand-written pages
(which `mkdocs serve` is told to watch) shows after the next rebuild; a bad data file shows its one-line
error on every generated page until it is fixed. `make site` and `make serve` build from the generated
build/mkdocs.yml, which carries no hooks.
"""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

import yaml

ROOT = Path(__file__).resolve().parents[2]
WATCHED = ("data", "templates", "scripts", "runners/snippets", "docs")


def build_directory() -> Path:
    """One directory per checkout, kept between builds: unchanged files are not written again."""
    digest = hashlib.sha256(str(ROOT).encode()).hexdigest()[:12]
    return Path(tempfile.gettempdir()) / f"phpcrypto-bench-site-{digest}"


def generate(out: Path) -> None:
    """The pages into `out`, as `make serve` generates them: on a build error, the error pages."""
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT / "scripts"), os.environ.get("PYTHONPATH")])),
    }
    command = [sys.executable, "-m", "phpcb", "--root", str(ROOT), "pages", "--error-pages", "--out", str(out)]
    result = subprocess.run(command, env=env, capture_output=True, text=True, check=False, cwd=ROOT)
    for line in (result.stderr.strip(), result.stdout.strip()):
        if line:
            print(line, file=sys.stderr, flush=True)
    if result.returncode != 0:
        raise SystemExit(f"python -m phpcb pages: exit code {result.returncode}")


def on_config(config: Any) -> Any:
    out = build_directory()
    generate(out)
    # What the frame's guard extension (phpcb.presentation.generated_only) looks for: the pages exist.
    os.environ["PHPCB_GENERATED_SITE"] = "1"
    generated = yaml.safe_load((out / "mkdocs.yml").read_text(encoding="utf-8"))
    config["docs_dir"] = str(out / "docs")
    config["nav"] = generated["nav"]
    return config


def on_serve(server: Any, config: Any, builder: Any) -> Any:
    # The sources, not the generated pages: every build writes the pages it changed (on_config), and
    # MkDocs, watching its docs_dir, built everything a second time for each change.
    server.unwatch(config["docs_dir"])
    for name in WATCHED:
        server.watch(str(ROOT / name))
    return server
