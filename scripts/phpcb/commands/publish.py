"""`python -m phpcb publish --version V|auto`: the runs' files to gh-pages' shared runs/ (those it
lacks), then mike deploys the site as V with the alias latest (make publish). The pages of a version
link up to runs/ (`../` from the version's directory) instead of holding a copy of every run."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from phpcb.pages import site_files
from phpcb.presentation.downloads import RUNS, RunFiles
from phpcb.publish import ghpages
from phpcb.publish.pullrequest import pages_url, repository_name

# Where a version's pages find the shared runs/: mike puts the version in <version>/ at the root.
VERSION_RUNS = RunFiles(base="../")


def arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--version", required=True, help=f"e.g. 0.3; {ghpages.AUTO_VERSION!r}: YYYY.MM of HEAD")
    parser.add_argument(
        "--config",
        type=Path,
        default=Path("build/mkdocs.publish.yml"),
        help="in the build directory the pages are generated into first (default: build/mkdocs.publish.yml)",
    )
    parser.add_argument("--force", action="store_true", help="publish even with uncommitted changes under data/, ...")
    parser.add_argument("--remote", default=ghpages.DEFAULT_REMOTE, help="push here when it exists (default: origin)")
    parser.add_argument(
        "--replace-runs",
        default="",
        help="run ids, comma-separated, whose published copy is replaced (a run re-sealed on purpose)",
    )
    parser.add_argument("--reason", default="", help="why the runs of --replace-runs are replaced (recorded)")


def run(args: argparse.Namespace) -> int:
    mike = [str(Path(sys.executable).with_name("mike"))]
    config = args.config if args.config.is_absolute() else args.root / args.config

    replace_ids = [part.strip() for part in args.replace_runs.split(",") if part.strip()]
    if replace_ids and not args.reason.strip():
        raise ghpages.GhPagesError("REPLACE_RUNS needs REASON: why the published copy is replaced (recorded)")
    replace = dict.fromkeys(replace_ids, args.reason.strip())

    def generate(version: str) -> None:
        # data/site.yaml's picks only: a run PHPCB_SHOW_RUN names for `make report` is never published.
        print(site_files.generate(args.root, config.parent, VERSION_RUNS))
        # The site's address: mike puts each version under it (site_url + version/), from which MkDocs
        # writes the sitemap and the 404 page's links, and the version selector finds the same page in
        # another version through that version's sitemap.
        repository = repository_name(args.root)
        if repository is not None:
            with config.open("a", encoding="utf-8") as handle:
                handle.write(f"site_url: {pages_url(repository)}\n")

    git = ghpages.Git(args.root, args.remote)
    version = ghpages.publish(git, args.version, str(config), mike, args.force, generate, config.parent / RUNS, replace)
    print(f"published {version} (alias {ghpages.ALIAS}) on {ghpages.BRANCH}")
    return 0
