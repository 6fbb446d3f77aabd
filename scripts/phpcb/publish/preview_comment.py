"""The pull request's preview comment (`python -m phpcb preview-comment --runs ID[,ID]`): each run the PR
adds beside its baseline (compare/baselines.py), in the Markdown exporter's words."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from phpcb.compare.baselines import comparisons
from phpcb.compare.comparison import Comparison
from phpcb.compare.exporters.markdown import LIMIT, MarkdownExporter, md_text
from phpcb.data.loader import load_runs
from phpcb.data.schema import load_schemas
from phpcb.data.selection import SiteConfig
from phpcb.errors import NoDataError
from phpcb.experiments.contexts import Contexts, Project
from phpcb.publish.github_comment import MARKER

COMMENT_TITLE = "### Benchmark preview"
# Room kept in the comment for the lines around the comparisons (pullrequest.preview adds the link).
_FRAME_RESERVE = 1_000


def comment(found: Sequence[Comparison], limit: int = LIMIT) -> str:
    """The PR comment: the marker github_comment.py finds it by, then each comparison in an equal
    share of `limit` characters."""
    head = [MARKER, COMMENT_TITLE, ""]
    runs = list(dict.fromkeys(c.new_id for c in found))
    head.append(
        f"This pull request adds {len(runs)} run{'s' if len(runs) != 1 else ''}: "
        + ", ".join(f"`{md_text(r)}`" for r in runs)
        + f". Each is compared with its baseline ({len(found)} comparison{'s' if len(found) != 1 else ''}).\n"
    )
    share = max((limit - _FRAME_RESERVE) // max(len(found), 1), 0)
    exporter = MarkdownExporter(share)
    return "\n".join(head) + "\n" + "\n".join(exporter.serialize(c) for c in found)


def preview_comment(root: Path, compared: Sequence[str], out: Path | None) -> str:
    """`python -m phpcb preview-comment`: the comment for these runs, printed or written to `out`."""
    if not compared:
        raise NoDataError("--runs: name at least one run id, e.g. --runs 20261122T1835Z-intel-xeon-fb7fc6-php8.2")
    schemas = load_schemas(root / "data" / "schema")
    runs = load_runs(root / "data" / "runs", schemas)
    config = SiteConfig.load(root / "data" / "site.yaml")
    config.check(runs)
    text = comment(comparisons(runs, compared, config, schemas, Contexts(Project(root), schemas)))
    if out is None:
        return text.rstrip("\n")
    out.parent.mkdir(parents=True, exist_ok=True)
    partial = out.with_name(out.name + ".partial")
    partial.write_text(text, encoding="utf-8")
    partial.replace(out)
    return f"{out}: comment on {', '.join(compared)} ({len(text):,} characters)"
