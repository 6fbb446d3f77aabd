"""What the pages show beyond data/site.yaml's picks, from the environment `make report`, the preview
job and an author set: PHPCB_SHOW_RUN (the run every page shows) and PHPCB_COMPARE (the runs the
Comparison page sets beside their baselines). The only place the build's view is read from outside."""

from __future__ import annotations

import os
from collections.abc import Mapping

from phpcb.data.selection import COMPARE_VARIABLE, SHOW_RUN_VARIABLE, View


def from_environment(environ: Mapping[str, str] = os.environ) -> View:
    return View.of(environ.get(SHOW_RUN_VARIABLE), environ.get(COMPARE_VARIABLE))
