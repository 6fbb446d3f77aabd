"""The build directory: every page, chart data file, download and asset of the site, and its
configuration with the navigation filled in, written once as files that a static-site generator
reads as they are (MkDocs, Zensical). Nothing is generated inside the generator.

    build/mkdocs.yml            the frame's mkdocs.yml: nav filled, docs_dir and custom_dir resolved
    build/mkdocs.*.yml          the frame's other configurations (INHERIT: mkdocs.yml), copied
    build/docs/...              the hand-written pages and assets, then the generated ones
    build/runs/<run-id>/...     the runs' files published beside the site (`make publish` copies
                                them to gh-pages once); none when they are published in it

The frame (mkdocs.yml, docs/, overrides/) is the project's own when it has a mkdocs.yml, else this
repository's: a project of data only (tests, `--root`) is shown in the repository's frame.

A generator checks its own links only partly (Zensical not at all), so `check` does it here for both:
every relative link of a page points to a file of the build, no link is absolute, and every page is
in the navigation. A Markdown link resolves from the page's file, as the generator resolves it; an
HTML link (`href`, `src`) from the page's address, as the browser does (directory URLs). A link that
leaves the site (to the runs shared beside it) is checked against the files the build writes beside
it (build/runs/); that the branch the site is published on holds them is not checked here: `make
publish` writes or verifies them (publish/ghpages.py), and a preview links only to runs it found there.
"""

from __future__ import annotations

import os
import posixpath
import re
import subprocess
from collections.abc import Collection, Iterator, Mapping
from pathlib import Path
from typing import Any

import plotly
import yaml

from phpcb.data.selection import PICKS, View
from phpcb.data.whole_files import write_whole
from phpcb.errors import BuildError
from phpcb.experiments import registry
from phpcb.experiments.contexts import Project
from phpcb.pages import build
from phpcb.presentation import generated_only
from phpcb.presentation.downloads import Compressed, RunFiles, served_directory

REPOSITORY = Path(__file__).resolve().parents[3]
CONFIG = "mkdocs.yml"
DOCS = "docs"
PLOTLY_JS = Path(plotly.__file__).parent / "package_data" / "plotly.min.js"
PLOTLY_TARGET = "assets/javascripts/plotly.min.js"
EXPERIMENTS_SECTION = "Experiments"
COMPARISON_TITLE = "Comparison"  # only when PHPCB_COMPARE names runs: the page exists then only
ERROR_TITLE = "The site cannot be built"
# What a page links to, in Markdown and in the HTML it may hold.
LINK = re.compile(r"\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)|\b(?:href|src)=\"([^\"]+)\"")
EXTERNAL = re.compile(r"[a-zA-Z][a-zA-Z0-9+.-]*:")  # https:, mailto:, data: ...
FENCE = re.compile(r"^(`{3,}|~{3,}).*?^\1", re.M | re.S)
INLINE_CODE = re.compile(r"`[^`\n]*`")

Content = str | bytes | Path | Compressed
GENERATORS_OWN = ("site", ".cache")  # what a generator writes beside its configuration (Zensical)


class SiteFilesError(BuildError):
    """The build directory would be broken: a link to a missing file, an absolute link, a page left
    out of the navigation, or a frame without its mkdocs.yml."""


def frame(root: Path) -> Path:
    return root if (root / CONFIG).is_file() else REPOSITORY


def navigation(nav: list[Any], experiments: Mapping[str, str], compared: bool, comparison_page: str) -> list[Any]:
    """The frame's nav with its Experiments section listing `experiments` (title → page), in order."""
    section = [{title: page} for title, page in experiments.items()]
    filled = [
        {EXPERIMENTS_SECTION: section} if isinstance(entry, dict) and EXPERIMENTS_SECTION in entry else entry
        for entry in nav
    ]
    if not any(isinstance(entry, dict) and EXPERIMENTS_SECTION in entry for entry in filled):
        filled.insert(1, {EXPERIMENTS_SECTION: section})
    if compared:
        filled.insert(2, {COMPARISON_TITLE: comparison_page})
    return filled


def load_config(frame_root: Path) -> dict[str, Any]:
    path = frame_root / CONFIG
    try:
        config = yaml.safe_load(path.read_text(encoding="utf-8"))
    except (OSError, yaml.YAMLError) as error:
        raise SiteFilesError(f"{path}: cannot be read as the site's configuration: {error}") from None
    if not isinstance(config, dict):
        raise SiteFilesError(f"{path}: expected a mapping of settings, got {type(config).__name__}")
    return config


# A repository on GitHub, as the origin remote names it (https or ssh), and as GITHUB_REPOSITORY does.
GITHUB_REMOTE = re.compile(
    r"(?:https://github\.com/|git@github\.com:|ssh://git@github\.com/)([\w.-]+/[\w.-]+?)(?:\.git)?/?"
)
OWNER_NAME = re.compile(r"[\w.-]+/[\w.-]+")


def repository(frame_root: Path) -> tuple[str, str] | None:
    """The site's repository, (url, owner/name): GITHUB_REPOSITORY where a workflow builds it (publish,
    previews), else the frame's origin remote when it is on GitHub; None for a clone without one (no link
    is better than a wrong one)."""
    name = os.environ.get("GITHUB_REPOSITORY", "").strip()
    server = os.environ.get("GITHUB_SERVER_URL", "https://github.com").strip().rstrip("/")
    if not OWNER_NAME.fullmatch(name):
        found = subprocess.run(
            ["git", "-C", str(frame_root), "remote", "get-url", "origin"], capture_output=True, text=True, check=False
        )
        match = GITHUB_REMOTE.fullmatch(found.stdout.strip())
        name, server = (match.group(1), "https://github.com") if match else ("", server)
    return (f"{server}/{name}", name) if name else None


def configuration(frame_root: Path, nav: list[Any]) -> dict[str, Any]:
    """The frame's configuration as the build directory's: paths resolved from the frame, no hooks; the
    repository linked from every page (repo_url) where the frame does not name it and it is known."""
    config = load_config(frame_root)
    config.pop("hooks", None)
    # The frame's guard against building it without the pages (presentation/generated_only.py).
    config["markdown_extensions"] = [e for e in config.get("markdown_extensions", []) if e != generated_only.NAME]
    found = repository(frame_root) if "repo_url" not in config else None
    if found is not None:
        config["repo_url"], name = found
        config.setdefault("repo_name", name)
    config["docs_dir"] = DOCS
    config["site_dir"] = "site"
    theme = dict(config.get("theme") or {})
    if theme.get("custom_dir"):
        theme["custom_dir"] = str((frame_root / theme["custom_dir"]).resolve())
    config["theme"] = theme
    config["nav"] = nav
    return config


def hand_written(frame_root: Path) -> dict[str, Content]:
    docs = frame_root / load_config(frame_root).get("docs_dir", DOCS)
    return {
        path.relative_to(docs).as_posix(): path
        for path in sorted(docs.rglob("*"))
        if path.is_file() and "__pycache__" not in path.parts
    }


def nav_pages(nav: list[Any]) -> Iterator[str]:
    for entry in nav:
        value = next(iter(entry.values())) if isinstance(entry, dict) else entry
        if isinstance(value, list):
            yield from nav_pages(value)
        elif isinstance(value, str) and not EXTERNAL.match(value):
            yield value


def links(text: str) -> Iterator[tuple[str, bool]]:
    """The links of a page outside its code blocks and code spans, and whether each is HTML."""
    prose = INLINE_CODE.sub("", FENCE.sub("", text))
    for match in LINK.finditer(prose):
        yield (match.group(1), False) if match.group(1) else (match.group(2), True)


def link_problems(page: str, text: str, files: Collection[str], beside: Collection[str] = ()) -> Iterator[str]:
    """`beside`: the files published beside the site, by their path from its root (`../runs/...`)."""
    for target, html in links(text):
        if EXTERNAL.match(target) or target.startswith("#"):
            continue
        if target.startswith("/"):
            yield f"{page}: absolute link {target!r}: write it relative to the page"
            continue
        path = target.split("#", 1)[0].split("?", 1)[0]
        start = served_directory(page) if html else posixpath.dirname(page)
        resolved = posixpath.normpath(posixpath.join(start, path))
        if resolved == ".." or resolved.startswith("../"):
            if not html:
                # The generator resolves a Markdown link among its own files, and fails --strict.
                yield f"{page}: links to {target!r}, outside the site: only an HTML link can leave it"
            elif resolved not in beside:
                yield f"{page}: links to {target!r} outside the site ({resolved}), where the build publishes no file"
            continue
        candidates = {resolved, f"{resolved.rstrip('/')}/index.md"}
        if html:
            candidates |= {f"{resolved.rstrip('/')}.md", "index.md" if resolved == "." else resolved}
        if not any(candidate in files for candidate in candidates):
            yield f"{page}: links to {target!r}, which is no file of the build ({resolved})"


def check(tree: Mapping[str, Content], nav: list[Any], beside: Collection[str] = ()) -> list[str]:
    """What the generators do not all check: links to missing files, absolute links, pages left out."""
    files = set(tree)
    problems: list[str] = []
    for page, content in sorted(tree.items()):
        if page.endswith(".md"):
            text = content.read_text(encoding="utf-8") if isinstance(content, Path) else str(content)
            problems.extend(link_problems(page, text, files, beside))
    listed = list(nav_pages(nav))
    problems.extend(f"nav lists {page}, which is no page of the build" for page in listed if page not in files)
    problems.extend(
        f"{page} is in no section of the nav" for page in sorted(files) if page.endswith(".md") and page not in listed
    )
    return problems


def error_page(message: str) -> str:
    """A page that shows the build error as it is (a fence longer than any backtick run in it), its long
    lines wrapped (pages.css: .pcb-build-error)."""
    fence = "`" * max(3, 1 + max((len(run) for run in re.findall(r"`+", message)), default=0))
    return (
        f"# {ERROR_TITLE}\n\n"
        "`python -m phpcb check` says:\n\n"
        f"{fence}{{.text .pcb-build-error}}\n{message}\n{fence}\n\n"
        "Fix the file it names and save: `make serve` regenerates the pages.\n"
    )


def _same(target: Path, content: Content) -> bool:
    if not target.is_file():
        return False
    if isinstance(content, Compressed):
        return content.matches(target)
    if isinstance(content, Path):
        return target.stat().st_size == content.stat().st_size and target.read_bytes() == content.read_bytes()
    data = content.encode("utf-8") if isinstance(content, str) else content
    return target.stat().st_size == len(data) and target.read_bytes() == data


def write(
    out: Path,
    configs: Mapping[str, dict[str, Any] | Path],
    tree: Mapping[str, Content],
    beside: Mapping[str, Content] | None = None,
) -> int:
    """Makes `out` hold exactly these configurations, files (under docs/) and files published beside
    the site (`runs/...`, beside docs/); a file already as it should be is left alone, so that a
    watching generator rebuilds only after a real change. Returns the files written."""
    out.mkdir(parents=True, exist_ok=True)
    wanted: dict[str, Content] = {f"{DOCS}/{name}": content for name, content in tree.items()}
    for name, content in (beside or {}).items():
        if name.split("/", 1)[0] in (DOCS, *GENERATORS_OWN) or name in configs:
            raise SiteFilesError(f"{name}: a file beside the site cannot take the place of the build's own")
        wanted[name] = content
    for name, config in configs.items():
        wanted[name] = (
            config
            if isinstance(config, Path)
            else yaml.safe_dump(config, sort_keys=False, allow_unicode=True, width=120)
        )
    written = 0
    for name, content in wanted.items():
        target = out / name
        if _same(target, content):
            continue
        target.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, Path):
            data = content.read_bytes()
        elif isinstance(content, Compressed):
            data = content.data()
        else:
            data = content.encode("utf-8") if isinstance(content, str) else content
        write_whole(target, data)
        written += 1
    for path in sorted(out.rglob("*"), reverse=True):
        relative = path.relative_to(out).as_posix()
        if relative.split("/", 1)[0] in GENERATORS_OWN:
            continue
        if path.is_file() and relative not in wanted:
            path.unlink()
        elif path.is_dir() and not any(path.iterdir()):
            path.rmdir()
    return written


def other_configs(frame_root: Path) -> dict[str, Path]:
    """The frame's other configurations (mkdocs.publish.yml ...), which INHERIT the first."""
    return {path.name: path for path in sorted(frame_root.glob("mkdocs.*.yml")) if not path.name.startswith(".")}


def assemble(
    root: Path, generated: build.GeneratedSite
) -> tuple[dict[str, dict[str, Any] | Path], dict[str, Content], dict[str, Content]]:
    """The configurations, the docs tree and the files beside the site for these generated pages."""
    frame_root = frame(root)
    frame_config = load_config(frame_root)
    titles = {page.experiment.title: page.experiment.page for page in generated.experiments}
    nav = navigation(
        frame_config.get("nav") or [],
        titles,
        build.COMPARISON_PAGE in generated.pages,
        build.COMPARISON_PAGE,
    )
    tree: dict[str, Content] = {**hand_written(frame_root), PLOTLY_TARGET: PLOTLY_JS}
    tree.update(generated.files)
    tree.update(generated.contents)
    tree.update(generated.pages)
    beside: dict[str, Content] = dict(generated.beside)
    if beside and frame_config.get("use_directory_urls", True) is False:
        # The links beside the site are HTML, written for the page's address under directory URLs.
        raise SiteFilesError(f"{frame_root / CONFIG}: runs published beside the site need use_directory_urls: true")
    base = generated.run_files.base or ""
    problems = check(tree, nav, {posixpath.normpath(base + name) for name in beside})
    if problems:
        raise SiteFilesError("the build would be broken:\n  " + "\n  ".join(problems))
    return {CONFIG: configuration(frame_root, nav), **other_configs(frame_root)}, tree, beside


def generate(root: Path, out: Path, run_files: RunFiles = build.IN_SITE, view: View = PICKS) -> str:
    """Every page generated once, checked, and written to `out` with the site's configuration;
    `run_files` says where the runs' files are published (default: in the site), `view` what the pages
    show beyond data/site.yaml's picks (build.build)."""
    generated = build.build(root, run_files, view)
    configs, tree, beside = assemble(root, generated)
    written = write(out, configs, tree, beside)
    pages = sum(1 for name in tree if name.endswith(".md"))
    shared = f", {len(beside)} beside it in {out / 'runs'}" if beside else ""
    return f"ok: {out}: {pages} pages, {len(tree) - pages} other files{shared} ({written} written)"


def generate_error(root: Path, out: Path, message: str) -> str:
    """The build directory of a site that cannot be built: each page it would generate says why, so
    that an author serving the site sees the error in the browser."""
    frame_root = frame(root)
    try:
        titles = {experiment.title: experiment.page for experiment in registry.discover()}
    except BuildError:
        titles = {}
    nav = navigation(load_config(frame_root).get("nav") or [], titles, False, build.COMPARISON_PAGE)
    tree: dict[str, Content] = {**hand_written(frame_root), PLOTLY_TARGET: PLOTLY_JS}
    for page in ["index.md", *nav_pages(nav)]:
        tree.setdefault(page, error_page(message))
    write(out, {CONFIG: configuration(frame_root, nav), **other_configs(frame_root)}, tree)
    return f"{out}: error pages written"


def watched(root: Path) -> list[Path]:
    """What the pages are made from: a change to any of these regenerates them under `make serve`."""
    frame_root = frame(root)
    return [
        *Project(root).watched,
        frame_root / DOCS,
        *sorted(frame_root.glob("mkdocs*.yml")),
        REPOSITORY / "scripts",
    ]
