"""`python -m phpcb check`: validate every run under data/runs/ and render every page in memory (the
view PHPCB_SHOW_RUN and PHPCB_COMPARE set, as `pages` builds it)."""

from __future__ import annotations

import argparse

from phpcb.commands import view
from phpcb.pages import build


def arguments(parser: argparse.ArgumentParser) -> None:
    del parser  # no arguments beyond --root


def run(args: argparse.Namespace) -> int:
    generated = build.build(args.root, view=view.from_environment())
    print(f"ok: {len(generated.pages)} pages, {len(generated.files)} data files")
    return 0
