"""What a reader sees, page by page: the generated Markdown of every page of a build, and how two builds'
pages differ. The ground truth of "what merging changes" (publish/merge_effect.py): whatever a pull
request touches (runs, code, policy, thresholds, templates, snippets), a page whose text differs between
the base's build and the merged tree's build is a page that changes, and the comment names it.

- `generated(root, sources)`: this code's pages of the tree at `root`, as `python -m phpcb pages` writes them
  (the published selection: no run of `make report` shown, no Comparison page).
- `read(directory)` / `write(pages, directory)`: pages as files (a build's docs/, or a preview
  artifact's, which the trusted comment job reads as untrusted data: plain files, names and sizes checked).
- `diff(before, after)`: each page whose text differs, its lines added and removed, and the first changed
  lines outside the snippets; `snippet_diffs`: each copyable snippet whose text as a page includes it
  differs, as a unified diff of that text.
"""

from __future__ import annotations

import difflib
import os
import re
import stat
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path

from phpcb.data.selection import PICKS
from phpcb.errors import BuildError
from phpcb.pages import build, site_files

Pages = Mapping[str, str]  # a page's path under docs/ (index.md, experiments/jwt.md) → its Markdown

HOME = "index.md"
CHANGED, ADDED, REMOVED = "changed", "added", "removed"
HOME_TITLE = "Home"
PAGE_NAME = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_.-]*(?:/[A-Za-z0-9_][A-Za-z0-9_.-]*)*\.md")
MAX_PAGES = 400
MAX_PAGE_BYTES = 4_000_000
MAX_TOTAL_BYTES = 40_000_000
EXCERPT_LINES = 8  # changed lines quoted per page
LINE_CHARS = 160  # a quoted line longer than this is cut
CONTEXT_CHARS = 50  # kept either side of where two versions of a long line differ
SNIPPET_LINES = 40  # lines of a snippet's diff quoted
# A snippet as a page includes it (presentation/render.py snippet_block): a caption naming its file, then
# within a few lines a fenced PHP block, indented when it is collapsed (`??? example`).
SNIPPET_CAPTION = re.compile(r"runners/snippets/([a-z0-9][a-z0-9-]{0,80}\.php)(?:\"\s*$|, as it is \()")
FENCE_OPEN = re.compile(r"^(\s*)(`{3,})php\s*$")
CAPTION_TO_FENCE = 4
# A run id as pages print it, in text or in an anchor (lower case, '.' as '-'): a changed line that differs
# from the line it replaces only in the run it names is counted, not quoted.
RUN_ID = re.compile(r"[0-9]{8}t[0-9]{4}z-[a-z0-9.-]+")


class PageTextError(BuildError):
    """Pages that cannot be read as a build's pages: names the file and what is wrong."""


def generated(root: Path, sources: build.Sources | None = None) -> dict[str, str]:
    """This code's pages of the tree at `root`: the Markdown `python -m phpcb pages` writes for them,
    generated in memory (no chart data, downloads or assets are written); `sources`: the tree already
    loaded (build.load), its analyses shared with the side's statements."""
    _, tree, _ = site_files.assemble(root, build.build(root, build.IN_SITE, PICKS, sources))
    pages = {}
    for name, content in tree.items():
        if name.endswith(".md"):
            pages[name] = content.read_text(encoding="utf-8") if isinstance(content, Path) else str(content)
    return dict(sorted(pages.items()))


def read(directory: Path) -> dict[str, str]:
    """The pages under `directory` (every *.md, by its path there), read as untrusted files: a directory
    of plain files and directories only (no link, device or fifo: nothing is followed), names of
    plain words (no part starts with a dot), at most MAX_PAGES pages of MAX_PAGE_BYTES each, UTF-8."""
    if directory.is_symlink() or not directory.is_dir():
        raise PageTextError(f"{directory}: expected a directory of pages")
    pages: dict[str, str] = {}
    total = 0
    for path, relative in _walk(directory):
        if not relative.endswith(".md"):
            continue
        if not PAGE_NAME.fullmatch(relative):
            raise PageTextError(f"{path}: not a page name (letters, digits, '_', '.', '-' and '/', ending in .md)")
        size = path.stat().st_size
        total += size
        if size > MAX_PAGE_BYTES or total > MAX_TOTAL_BYTES or len(pages) >= MAX_PAGES:
            raise PageTextError(
                f"{path}: more pages or bytes than a build has ({MAX_PAGES} pages, {MAX_PAGE_BYTES:,} bytes each)"
            )
        try:
            pages[relative] = path.read_text(encoding="utf-8")
        except UnicodeDecodeError as error:
            raise PageTextError(f"{path}: not UTF-8 text: {error}") from None
    return dict(sorted(pages.items()))


def _walk(directory: Path) -> Iterator[tuple[Path, str]]:
    """Each regular file under `directory` and its path there; anything else is refused."""
    for top, directories, files in os.walk(directory):
        for name in sorted(directories + files):
            path = Path(top) / name
            mode = os.lstat(path).st_mode
            if stat.S_ISDIR(mode):
                continue
            if not stat.S_ISREG(mode):
                raise PageTextError(f"{path}: not a regular file; pages are plain files")
            yield path, path.relative_to(directory).as_posix()


def write(pages: Pages, directory: Path) -> None:
    """`pages` as files under `directory` (which `read` gives back)."""
    for name, text in pages.items():
        target = directory / name
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8")


def title(page: str, text: str | None) -> str:
    """A page as the comment names it: Home, else its first heading, else its path."""
    if page == HOME:
        return HOME_TITLE
    for line in (text or "").splitlines():
        if line.startswith("# "):
            return line[2:].strip() or page
    return page


@dataclass(frozen=True)
class TextChange:
    """A page whose text differs: its lines added and removed (snippets included), and its first changed
    lines outside the snippets ("-" the base's, "+" the merged tree's), cut to LINE_CHARS."""

    page: str
    title: str
    added: int
    removed: int
    excerpt: tuple[str, ...]
    more: int  # changed lines outside the snippets not quoted
    status: str = CHANGED  # ADDED: no such page before; REMOVED: none after
    renamed: int = 0  # changed lines (pairs) that differ only in the run they name, not quoted

    @property
    def counts(self) -> str:
        lines = f"+{self.added} −{self.removed} lines"
        return {ADDED: f"new page ({lines})", REMOVED: f"page removed ({lines})"}.get(self.status, lines)


@dataclass(frozen=True)
class SnippetChange:
    """A snippet whose text as the pages include it differs: a unified diff of that text (None before:
    no page of the base included it; None after: no page of the merged tree does)."""

    name: str
    pages: tuple[str, ...]  # the titles of the pages that include it, on either side
    diff: tuple[str, ...]
    more: int  # diff lines not quoted

    @property
    def path(self) -> str:
        return f"runners/snippets/{self.name}"


def _cut(line: str) -> str:
    return line if len(line) <= LINE_CHARS else line[: LINE_CHARS - 1] + "…"


def _common(a: str, b: str) -> int:
    """How many characters `a` and `b` begin with alike."""
    for index, (x, y) in enumerate(zip(a, b, strict=False)):
        if x != y:
            return index
    return min(len(a), len(b))


def _window(old: str, new: str) -> tuple[str, str]:
    """Two versions of a long line cut to where they differ, with CONTEXT_CHARS either side."""
    if len(old) <= LINE_CHARS and len(new) <= LINE_CHARS:
        return old, new
    prefix = _common(old, new)
    suffix = _common(old[prefix:][::-1], new[prefix:][::-1])
    start = max(0, prefix - CONTEXT_CHARS)

    def cut(line: str) -> str:
        end = min(len(line), len(line) - suffix + CONTEXT_CHARS)
        return ("…" if start else "") + line[start:end] + ("…" if end < len(line) else "")

    return cut(old), cut(new)


def _same_but_run(old: str, new: str) -> bool:
    return RUN_ID.sub("#", old.lower()) == RUN_ID.sub("#", new.lower())


def _quoted(changed: list[str]) -> tuple[list[str], int]:
    """Changed lines ('-' and '+', hunk by hunk) as the comment quotes them: each pair of a removed and an
    added line of a hunk cut to where they differ, and every line to LINE_CHARS; a pair that differs only
    in the run it names is left out, and counted."""
    quoted: list[str] = []
    removed: list[str] = []
    added: list[str] = []
    renamed = 0

    def flush() -> None:
        nonlocal renamed
        pairs = min(len(removed), len(added))
        kept = [i for i in range(pairs) if not _same_but_run(removed[i], added[i])]
        renamed += pairs - len(kept)
        windows = [_window(removed[i], added[i]) for i in kept]
        quoted.extend("-" + _cut(w[0]) for w in windows)
        quoted.extend("-" + _cut(line) for line in removed[pairs:])
        quoted.extend("+" + _cut(w[1]) for w in windows)
        quoted.extend("+" + _cut(line) for line in added[pairs:])
        removed.clear()
        added.clear()

    for line in changed:
        if line.startswith("@@"):
            flush()
        elif line.startswith("-"):
            removed.append(line[1:])
        elif line.startswith("+"):
            added.append(line[1:])
    flush()
    return quoted, renamed


def snippets(text: str) -> dict[str, str]:
    """Each snippet a page includes, by file name: the text of its fenced block, unindented (the first
    block of each name)."""
    lines = text.splitlines()
    found: dict[str, str] = {}
    for number, line in enumerate(lines):
        caption = SNIPPET_CAPTION.search(line)
        if caption is None or caption.group(1) in found:
            continue
        for start in range(number + 1, min(number + 1 + CAPTION_TO_FENCE, len(lines))):
            opening = FENCE_OPEN.match(lines[start])
            if opening is None:
                continue
            indent, fence = opening.group(1), opening.group(2)
            body = []
            for inner in lines[start + 1 :]:
                if inner.strip() == fence and inner.startswith(indent):
                    break
                body.append(inner[len(indent) :] if inner.startswith(indent) else inner.lstrip())
            found[caption.group(1)] = "\n".join(body) + "\n"
            break
    return found


def without_snippets(text: str) -> list[str]:
    """The page's lines with each included snippet's block left out (a snippet's change is quoted
    apart, as a diff of the snippet)."""
    lines = text.splitlines()
    kept = []
    skipping: tuple[str, str] | None = None
    for number, line in enumerate(lines):
        if skipping is not None:
            if line.strip() == skipping[1] and line.startswith(skipping[0]):
                skipping = None
            continue
        opening = FENCE_OPEN.match(line)
        before = lines[max(0, number - CAPTION_TO_FENCE) : number]
        if opening is not None and any(SNIPPET_CAPTION.search(b) for b in before):
            skipping = (opening.group(1), opening.group(2))
            continue
        kept.append(line)
    return kept


def _changed(before: list[str], after: list[str]) -> tuple[int, int, list[str]]:
    """Lines added, removed, and the changed lines in order ('-' then '+' per hunk, each hunk opened by
    its '@@' line)."""
    added = removed = 0
    changed = []
    for line in difflib.unified_diff(before, after, lineterm="", n=0):
        if line.startswith(("---", "+++")):
            continue
        if line.startswith("@@"):
            changed.append(line)
            continue
        if line.startswith("+"):
            added += 1
        elif line.startswith("-"):
            removed += 1
        changed.append(line)
    return added, removed, changed


def diff(before: Pages, after: Pages, titles: Mapping[str, str] | None = None) -> tuple[TextChange, ...]:
    """Each page whose text differs (added and removed pages too), in the order of the pages' paths;
    `titles` names pages (the experiments' own titles), else `title`."""
    found = []
    for page in sorted(before.keys() | after.keys()):
        old, new = before.get(page), after.get(page)
        if old == new:
            continue
        added, removed, _ = _changed((old or "").splitlines(), (new or "").splitlines())
        _, _, outside = _changed(without_snippets(old or ""), without_snippets(new or ""))
        named = (titles or {}).get(page) or title(page, new if new is not None else old)
        quoted, renamed = _quoted(outside)
        excerpt = tuple(quoted[:EXCERPT_LINES])
        status = ADDED if old is None else REMOVED if new is None else CHANGED
        more = max(0, len(quoted) - EXCERPT_LINES)
        found.append(TextChange(page, named, added, removed, excerpt, more, status, renamed))
    return tuple(found)


def snippet_diffs(before: Pages, after: Pages, titles: Mapping[str, str] | None = None) -> tuple[SnippetChange, ...]:
    """Each snippet whose text, as the pages include it, differs between the two builds (or that only one
    side's pages include): a unified diff of that text, the pages that include it named."""
    old: dict[str, str] = {}
    new: dict[str, str] = {}
    where: dict[str, list[str]] = {}
    for pages, into in ((before, old), (after, new)):
        for page, text in sorted(pages.items()):
            for name, source in snippets(text).items():
                into.setdefault(name, source)
                shown = (titles or {}).get(page) or title(page, text)
                if shown not in where.setdefault(name, []):
                    where[name].append(shown)
    found = []
    for name in sorted(old.keys() | new.keys()):
        a, b = old.get(name), new.get(name)
        if a == b:
            continue
        path = f"runners/snippets/{name}"
        lines = list(
            difflib.unified_diff(
                (a or "").splitlines(),
                (b or "").splitlines(),
                fromfile=f"{path} (base)" if a is not None else "/dev/null",
                tofile=f"{path} (merged)" if b is not None else "/dev/null",
                lineterm="",
                n=1,
            )
        )
        quoted = tuple(_cut(line) for line in lines[:SNIPPET_LINES])
        found.append(SnippetChange(name, tuple(where[name]), quoted, max(0, len(lines) - SNIPPET_LINES)))
    return tuple(found)
