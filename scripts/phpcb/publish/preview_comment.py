"""Each named run beside its baseline, in full (`python -m phpcb preview-comment --runs ID[,ID]`), in the
Markdown exporter's words: what the Comparison page shows, as one Markdown text."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from phpcb.compare.baselines import comparisons
from phpcb.compare.comparison import Comparison
from phpcb.compare.exporters.markdown import LIMIT, MarkdownExporter, md_text
from phpcb.data.loader import load_runs
from phpcb.data.schema import load_schemas
from phpcb.data.selection import SiteConfig
from phpcb.data.whole_files import write_whole
from phpcb.errors import NoDataError
from phpcb.experiments.contexts import Contexts, Project
from phpcb.publish.github_comment import MARKER

COMMENT_TITLE = "### Benchmark preview"
# Room kept in the comment for the lines around the comparisons (pullrequest.preview adds the link).
_FRAME_RESERVE = 1_000


EVIDENCE_HEADING = "#### The evidence: each added run beside its baseline"


def comment(found: Sequence[Comparison], limit: int = LIMIT, lead: str = "") -> str:
    """The PR comment: the marker github_comment.py finds it by, what merging changes (`lead`), then
    each comparison in an equal share of what is left of `limit` characters."""
    head = [MARKER, COMMENT_TITLE, ""]
    if lead:
        head.append(lead)
    runs = list(dict.fromkeys(c.new_id for c in found))
    if not runs:
        head.append("This pull request adds no run, so there is no comparison to show.\n")
        return "\n".join(head)
    head += [EVIDENCE_HEADING, ""]
    head.append(
        f"This pull request adds {len(runs)} run{'s' if len(runs) != 1 else ''}: "
        + ", ".join(f"`{md_text(r)}`" for r in runs)
        + f". Each is compared with its baseline ({len(found)} comparison{'s' if len(found) != 1 else ''}); "
        "what the comparison finds is evidence, not a change of the pages: that is the section above.\n"
    )
    room = limit - _FRAME_RESERVE - len(lead)
    share = max(room // max(len(found), 1), 0)
    exporter = MarkdownExporter(share)
    return "\n".join(head) + "\n" + "\n".join(exporter.serialize(c) for c in found)


def preview_comment(root: Path, compared: Sequence[str], out: Path | None) -> str:
    """`python -m phpcb preview-comment`: each named run beside its baseline with its full tables, printed
    or written to `out` (the pull request's comment itself is merge_comment.py's: it links to these
    tables on the preview's Comparison page)."""
    if not compared:
        raise NoDataError("--runs: name at least one run id, e.g. --runs 20261122T1835Z-intel-xeon-fb7fc6-php8.2")
    schemas = load_schemas(root / "data" / "schema")
    runs = load_runs(root / "data" / "runs", schemas)
    config = SiteConfig.load(root / "data" / "site.yaml")
    config.check(runs)
    found = comparisons(runs, compared, config, schemas, Contexts(Project(root), schemas))
    text = comment(found)
    if out is None:
        return text.rstrip("\n")
    out.parent.mkdir(parents=True, exist_ok=True)
    write_whole(out, text.encode("utf-8"))
    return f"{out}: comment on {', '.join(compared)} ({len(text):,} characters)"
